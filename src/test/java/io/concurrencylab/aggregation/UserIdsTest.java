package io.concurrencylab.aggregation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UserIdsTest {

    @Test
    void aPositiveWholeNumberUpToLongMaxIsAnId() {
        assertEquals(1L, UserIds.parse("1"));
        assertEquals(Long.MAX_VALUE, UserIds.parse("9223372036854775807"));
        assertEquals(42L, UserIds.parse("42"));
    }

    /** Signs, leading zeros and other scripts' digits too: Long.parseLong alone takes all of them. */
    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "+42", "042", "9223372036854775808", "1.5", "1e3", "0x10", " 1", "1 ", "", "٤٢", "４２", "abc"})
    void anythingElseIsABadRequest(String id) {
        ServiceException e = assertThrows(ServiceException.class, () -> UserIds.parse(id));
        assertEquals(ErrorCode.BAD_REQUEST, e.code());
    }

    @Test
    void theAnswerQuotesALongIdShortened() {
        ServiceException e = assertThrows(ServiceException.class, () -> UserIds.parse("9".repeat(500)));
        assertTrue(e.getMessage().length() < 120, e.getMessage());
        assertTrue(e.getMessage().endsWith("...'"), e.getMessage());
    }
}
