package io.concurrencylab.overload;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The limit on a clock of the test's own: a queue time of 50 ms, a floor of 4, from time 0 (100 ms intervals). */
class InFlightLimitTest {

    static final long MS = 1_000_000;
    final InFlightLimit limit = new InFlightLimit(50 * MS, 4, 0);

    void admitted(long at, int count) {
        for (int n = 0; n < count; n++) {
            assertTrue(limit.admit(at * MS), "request " + (n + 1) + " at " + at + " ms");
        }
    }

    void answered(long at, int count) {
        for (int n = 0; n < count; n++) {
            limit.ended(at * MS);
        }
    }

    /** 4 at a time, each answered 5 ms later, every 10 ms from 0 to 90 ms: a limit of 20 from 100 ms on. */
    void fortyAnsweredBy100Ms() {
        for (int n = 0; n < 10; n++) {
            admitted(n * 10, 4);
            answered(n * 10 + 5, 4);
        }
    }

    @Test
    void atFirstTheFloorHolds() {
        admitted(0, 4);
        assertFalse(limit.admit(1 * MS));
    }

    @Test
    void withoutAStandingQueueTheCeilingIsWhatTheAppAnsweredInAnInterval() {
        fortyAnsweredBy100Ms();
        // 40 answers in 0 to 100 ms, and every arrival met none in flight: 40 may be in flight in the next interval.
        admitted(100, 40);
        assertFalse(limit.admit(150 * MS));
        answered(160, 1);
        assertTrue(limit.admit(161 * MS), "one ended: room for one");
    }

    /** 40 answers in 0 to 100 ms; from 200 to 300 ms every arrival met 10 in flight or more: the limit of 20 next. */
    void aQueueStoodFrom200To300Ms() {
        fortyAnsweredBy100Ms();
        admitted(100, 40);
        answered(250, 30);
        admitted(260, 1);
    }

    @Test
    void onceAQueueStoodAnIntervalTheLimitIsWhatTheAppAnsweredInTheQueueTime() {
        aQueueStoodFrom200To300Ms();
        admitted(300, 9);
        assertFalse(limit.admit(300 * MS), "20 in flight: the limit");
    }

    @Test
    void aQueueThatDrainedBringsTheCeilingBackAnIntervalLater() {
        aQueueStoodFrom200To300Ms();
        answered(310, 11);
        admitted(320, 20);
        assertFalse(limit.admit(330 * MS), "the limit holds until the interval's end");
        answered(340, 20);
        admitted(400, 40);
        assertFalse(limit.admit(400 * MS), "an arrival met none in flight in 300 to 400 ms: the ceiling of 40");
    }

    @Test
    void anAppThatAnswersLessGetsALowerLimitButNeverBelowTheFloor() {
        admitted(0, 4);
        answered(50, 1);
        admitted(60, 1);
        assertFalse(limit.admit(150 * MS), "1 answer: the floor of 4, with 4 in flight");
        answered(160, 4);
        admitted(200, 4);
        assertFalse(limit.admit(200 * MS));
    }

    @Test
    void anIdleStretchKeepsTheLimit() {
        fortyAnsweredBy100Ms();
        // 40 answers in 0 to 100 ms, then nothing until 450 ms: the ceiling of 40
        admitted(450, 40);
        assertFalse(limit.admit(450 * MS));
    }

    @Test
    void aSlowIntervalLeavesTheLimitAtTheBestOfTheLastSecond() {
        fortyAnsweredBy100Ms();
        // 40 answers in 0 to 100 ms, then 2 in 100 to 200 ms (a GC pause, or the load's end)
        admitted(100, 2);
        answered(150, 2);
        admitted(200, 40);
        assertFalse(limit.admit(200 * MS));
    }

    @Test
    void aSecondOfStallWithRequestsInFlightBringsTheLimitBackToTheFloor() {
        fortyAnsweredBy100Ms();
        admitted(100, 20);
        answered(110, 16);
        admitted(1300, 0);
        assertFalse(limit.admit(1300 * MS), "4 in flight and nothing answered from 200 to 1,300 ms: the floor of 4");
        answered(1310, 4);
        admitted(1311, 4);
    }
}
