package io.concurrencylab.overload;

/**
 * How many requests of one kind may be in flight at the first gate: as many as the app answered in {@code queueTime}
 * at its best of the last second (Little's law: a queue that long drains within that time), and at least
 * {@code floor}. Answers are counted per interval of the kubelet's CFS period, so that a quota's throttled half-period
 * alone never reads as a slower app; the best of ten, so that neither a GC pause nor the last, partial interval of a
 * load lowers the limit below the app's pace. A burst beyond what the app answers is shed from its first interval.
 * <p>
 * An interval with nothing in flight tells nothing and keeps the limit: reset to the floor after each idle spell, a
 * load's first 100 ms met 8 and shed 503s below its capacity. Intervals with requests in flight and no answer (a
 * stalled database) count as none: after a second of them, the floor.
 */
final class InFlightLimit {

    static final long INTERVAL_NANOS = 100_000_000;
    static final int INTERVALS = 10;

    private final long queueTimeNanos;
    private final int floor;
    /**
     * Guarded by this: the requests in flight, the current interval's end, its answers so far, whether a request was
     * in flight in it, and the answers of the last busy intervals (a ring; the next slot at {@code next}).
     */
    private int inFlight;
    private long intervalEnd;
    private int answered;
    private boolean busy;
    private final int[] recent = new int[INTERVALS];
    private int next;
    private int limit;

    InFlightLimit(long queueTimeNanos, int floor, long now) {
        this.queueTimeNanos = queueTimeNanos;
        this.floor = floor;
        this.limit = floor;
        this.intervalEnd = now + INTERVAL_NANOS;
    }

    /** Counts a request in and answers true, unless as many as the limit are in flight. */
    synchronized boolean admit(long now) {
        roll(now);
        if (inFlight >= limit) {
            return false;
        }
        inFlight++;
        busy = true;
        return true;
    }

    /** An admitted request ended. */
    synchronized void ended(long now) {
        roll(now);
        inFlight--;
        answered++;
    }

    /**
     * Once the interval is over: its answers into the ring if a request was in flight in it, and the next interval.
     * Intervals that passed since without a call were idle if nothing is in flight (the ring stays), stalled otherwise
     * (no answers).
     */
    private void roll(long now) {
        long late = now - intervalEnd;
        if (late < 0) {
            return;
        }
        if (busy) {
            record(answered);
        }
        if (inFlight > 0) {
            for (long skipped = Math.min(INTERVALS, late / INTERVAL_NANOS); skipped > 0; skipped--) {
                record(0);
            }
        }
        answered = 0;
        busy = inFlight > 0;
        intervalEnd = now + INTERVAL_NANOS - late % INTERVAL_NANOS;
    }

    private void record(int answers) {
        recent[next] = answers;
        next = (next + 1) % INTERVALS;
        long best = 0;
        for (int count : recent) {
            best = Math.max(best, count);
        }
        limit = (int) Math.max(floor, Math.min(Integer.MAX_VALUE, best * queueTimeNanos / INTERVAL_NANOS));
    }
}
