package io.concurrencylab.workload;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.TestProfileConfig;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code GET /{model}/mixed?cpu=N} and {@code /mixed/offload}: a 100 ms downstream call over real HTTP, then N rounds of
 * SHA-256, on the model's own thread or on the bounded CPU pool; against the packaged jar too ({@link MixedIT}). Where the
 * call and the rounds run: {@link ThreadModelTest}.
 */
@QuarkusTest
class MixedTest {

    /** Every model, inline and offloaded. */
    static Stream<Arguments> variants() {
        return Models.ALL.stream().flatMap(model -> Stream.of(
                Arguments.of(model, "mixed"), Arguments.of(model, "mixed/offload")));
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("variants")
    void answersTheDownstreamAndTheDigestOfTheRounds(String model, String variant) throws Exception {
        for (int cpu : new int[] { 0, 1, 1000 }) {
            long started = System.nanoTime();
            given().queryParam("cpu", cpu).when().get("/" + model + "/" + variant)
                    .then().statusCode(200).contentType(ContentType.JSON)
                    .body(equalTo("{\"downstream\":\"User 1\",\"cpu\":" + cpu + ",\"digest\":\"" + expectedDigest(cpu)
                            + "\",\"offloaded\":" + variant.endsWith("offload") + "}"));
            long took = (System.nanoTime() - started) / 1_000_000;
            // The downstream call alone takes 100 ms; a lower bound only.
            assertTrue(took >= 100, model + "/" + variant + " answered after " + took + " ms");
        }
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("variants")
    void answers400JsonForRoundsThatAreNotAWholeNumberWithinTheMaximum(String model, String variant) {
        String tooMany = String.valueOf(TestProfileConfig.longValue("lab.workload.max-cpu-rounds") + 1);
        for (String cpu : List.of("-1", "abc", "1.5", "", "99999999999999999999", tooMany)) {
            given().queryParam("cpu", cpu).when().get("/" + model + "/" + variant)
                    .then().statusCode(400).contentType(ContentType.JSON)
                    .body("status", equalTo(400), "error", equalTo("bad_request"));
        }
        given().when().get("/" + model + "/" + variant)
                .then().statusCode(400).contentType(ContentType.JSON).body("error", equalTo("bad_request"));
    }

    /**
     * The chain as specified, written apart from the app's: each round hashes the previous digest followed by the
     * bytes 0..255 sixteen times, starting from 32 zero bytes.
     */
    static String expectedDigest(int rounds) throws NoSuchAlgorithmException {
        byte[] input = new byte[32 + 4096];
        for (int i = 0; i < 4096; i++) {
            input[32 + i] = (byte) (i % 256);
        }
        byte[] digest = new byte[32];
        for (int round = 0; round < rounds; round++) {
            System.arraycopy(digest, 0, input, 0, 32);
            digest = MessageDigest.getInstance("SHA-256").digest(input);
        }
        return HexFormat.of().formatHex(digest);
    }
}
