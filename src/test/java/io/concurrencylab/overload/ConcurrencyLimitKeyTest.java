package io.concurrencylab.overload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which requests share a concurrency counter: one per model and kind of work, none for anything else. */
class ConcurrencyLimitKeyTest {

    @ParameterizedTest
    @CsvSource({
            "/virtual/users/me, virtual/me",
            "/worker/users/me/report, worker/report",
            "/reactive/users/42/aggregate, reactive/aggregate",
            "/worker/users/7/aggregate/cached, worker/aggregate",
    })
    void aModelsKindOfWorkIsOneCounter(String path, String key) {
        assertEquals(key, ConcurrencyLimit.counterKey(path));
    }

    /** Health, metrics, the downstream, the cache's own endpoint and paths a client invents: no counter of their own. */
    @ParameterizedTest
    @ValueSource(strings = {"/", "/q/health/ready", "/q/metrics", "/lab/saturation", "/downstream/base/1",
            "/cache/aggregate/1", "/virtual", "/virtual/users", "/virtual/users/1", "/carrier/users/me",
            "/virtual/orders/me", "/virtual/users/me/settings", "/VIRTUAL/users/me", "/virtual/users/x/aggregat"})
    void anythingElseHasNoCounter(String path) {
        assertNull(ConcurrencyLimit.counterKey(path));
    }
}
