package io.concurrencylab.overload;

/**
 * How many requests of one kind may be in flight at the first gate: as many as the app answered in the last
 * {@code queueTime} (Little's law: a queue that long drains within that time), and at least {@code floor}. The rate is
 * counted per interval of the kubelet's CFS period, so that a quota's throttled half-period alone never reads as a
 * slower app. A burst beyond what the app answers is shed from its first interval; a load the app keeps up with, at
 * its usual latency, stays far below the limit. An interval with nothing in flight tells nothing and keeps the limit:
 * reset to the floor after each idle spell, a load's first 100 ms met 8 and shed 503s below its capacity.
 */
final class InFlightLimit {

    static final long INTERVAL_NANOS = 100_000_000;

    private final long queueTimeNanos;
    private final int floor;
    /**
     * Guarded by this: the limit, the requests in flight, the current interval's end, its answers so far, and whether a
     * request was in flight in it.
     */
    private int limit;
    private int inFlight;
    private long intervalEnd;
    private int answered;
    private boolean busy;

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
     * Once the interval is over: the limit from its answers, if a request was in flight in it, and the next interval.
     * Intervals that passed since without a call were idle if nothing is in flight (the limit stays), stalled otherwise
     * (nothing answered: the floor).
     */
    private void roll(long now) {
        long late = now - intervalEnd;
        if (late < 0) {
            return;
        }
        if (busy) {
            limit = (int) Math.max(floor, Math.min(Integer.MAX_VALUE, answered * queueTimeNanos / INTERVAL_NANOS));
        }
        if (late >= INTERVAL_NANOS && inFlight > 0) {
            limit = floor;
        }
        answered = 0;
        busy = inFlight > 0;
        intervalEnd = now + INTERVAL_NANOS - late % INTERVAL_NANOS;
    }
}
