package io.concurrencylab.overload;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** An event loop's lag on a clock of the test's own, from time 0 (a tick due every 10 ms), against a bound of 100 ms. */
class LoopLagTest {

    static final long MS = 1_000_000;
    final LoopLag lag = new LoopLag(100 * MS, 0);

    @Test
    void aLoopOnTimeIsNotBehind() {
        for (long at = 10; at <= 1000; at += 10) {
            lag.ticked(at * MS);
            assertFalse(lag.behind(at * MS + 5 * MS), "at " + at + " ms");
        }
    }

    @Test
    void oneStallPastTheBoundIsNotAQueue() {
        lag.ticked(400 * MS); // due at 10 ms: a stall of 390 ms
        assertFalse(lag.behind(401 * MS));
        lag.ticked(410 * MS);
        assertFalse(lag.behind(411 * MS));
    }

    @Test
    void twoLateTicksInARowAreBehindUntilOneRunsOnTime() {
        lag.ticked(130 * MS); // due at 10 ms
        lag.ticked(260 * MS); // due at 140 ms
        assertTrue(lag.behind(261 * MS));
        lag.ticked(271 * MS);
        assertFalse(lag.behind(272 * MS));
    }

    @Test
    void aLateTickAndAnOverdueOneAreBehindBeforeTheSecondRuns() {
        lag.ticked(130 * MS); // due at 10 ms; the next due at 140 ms
        assertFalse(lag.behind(240 * MS), "100 ms overdue: at the bound, not past it");
        assertTrue(lag.behind(241 * MS));
    }

    @Test
    void anOverdueTickAfterOneOnTimeIsNotBehind() {
        lag.ticked(10 * MS);
        assertFalse(lag.behind(500 * MS));
    }
}
