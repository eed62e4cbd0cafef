package io.concurrencylab.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The token's shape check, a loop that runs on every request, against its definition as a regular expression: three
 * segments of unpadded base64url, each 4n, 4n + 2 or 4n + 3 characters long (RFC 7515).
 */
class CompactSegmentsTest {

    private static final String SEGMENT = "(?:[A-Za-z0-9_-]{4})*+(?:[A-Za-z0-9_-]{2,3})?+";
    private static final Pattern COMPACT_JWS = Pattern.compile(SEGMENT + "\\." + SEGMENT + "\\." + SEGMENT);
    /** base64url, the separator, and what the standard decoders take or skip: padding, '+', '/', white space. */
    private static final String ALPHABET = "AZaz09-_.....=+/ \n";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "eyJh.eyJz.c2ln|9", "..|1", "abcd.abcdef.ab|11", "abc.ab.|6", "a.ab.ab|-1", "ab.a.ab|-1", "ab.ab.a|-1",
        "ab.ab|-1", "ab.ab.ab.ab|-1", "ab.ab=.ab|-1", "ab.a+b.ab|-1", "'ab.ab.ab '|-1", "ab.ab.a/b|-1" })
    void findsThePayloadsEndOrRefusesTheToken(String token, int payloadEnd) {
        assertEquals(payloadEnd, BoundedTokenParsing.compactSegments(token));
    }

    @Test
    void acceptsExactlyWhatTheDefinitionAccepts() {
        Random random = new Random(44);
        for (int n = 0; n < 200_000; n++) {
            StringBuilder token = new StringBuilder();
            for (int i = random.nextInt(16); i > 0; i--) {
                token.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
            }
            String text = token.toString();
            int payloadEnd = BoundedTokenParsing.compactSegments(text);
            assertEquals(COMPACT_JWS.matcher(text).matches(), payloadEnd >= 0, text);
            if (payloadEnd >= 0) {
                assertEquals(text.indexOf('.', text.indexOf('.') + 1), payloadEnd, text);
            }
        }
    }
}
