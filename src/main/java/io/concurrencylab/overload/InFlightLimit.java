package io.concurrencylab.overload;

/**
 * How many requests of one kind may be in flight at the first gate. Two bounds, from the answers of the app's best
 * interval of the last second, counted per interval of the kubelet's CFS period:
 * <ul>
 * <li>the <b>limit</b>, while a queue stands: as many as the app answered in {@code queueTime} (Little's law: a queue
 * that long drains within that time), and at least {@code floor}. A queue stands when every arrival of the last
 * interval met at least half the limit in flight: the app never caught up.</li>
 * <li>the <b>ceiling</b> otherwise: as many as it answered in a whole interval, and at least the limit. A quota's
 * throttled part of a period piles up requests the app answers once it runs again: at the limit alone, a pod at half
 * its capacity shed 4 % of its lookups.</li>
 * </ul>
 * Counted per interval, a throttled half-period never reads as a slower app; the best of ten, so that neither a GC
 * pause nor the last, partial interval of a load lowers the bounds below the app's pace.
 * <p>
 * An interval with nothing in flight tells nothing and keeps the bounds: reset to the floor after each idle spell, a
 * load's first 100 ms met 8 and shed 503s below its capacity. Intervals with requests in flight and no answer (a
 * stalled database) count as none: after a second of them, the floor.
 */
final class InFlightLimit {

    static final long INTERVAL_NANOS = 100_000_000;
    static final int INTERVALS = 10;
    private static final int NO_ARRIVAL = Integer.MAX_VALUE;

    private final long queueTimeNanos;
    private final int floor;
    /**
     * Guarded by this: the requests in flight, the current interval's end, its answers so far, whether a request was
     * in flight in it, the fewest in flight an arrival met in it, and the answers of the last busy intervals (a ring;
     * the next slot at {@code next}).
     */
    private int inFlight;
    private long intervalEnd;
    private int answered;
    private boolean busy;
    private int fewestMet = NO_ARRIVAL;
    private final int[] recent = new int[INTERVALS];
    private int next;
    private int limit;
    private int ceiling;
    private boolean queueStands;

    InFlightLimit(long queueTimeNanos, int floor, long now) {
        this.queueTimeNanos = queueTimeNanos;
        this.floor = floor;
        this.limit = floor;
        this.ceiling = floor;
        this.intervalEnd = now + INTERVAL_NANOS;
    }

    /** Counts a request in and answers true, unless as many as the bound in force are in flight. */
    synchronized boolean admit(long now) {
        roll(now);
        fewestMet = Math.min(fewestMet, inFlight);
        if (inFlight >= (queueStands ? limit : ceiling)) {
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
     * Once the interval is over: whether a queue stood in it, its answers into the ring if a request was in flight in
     * it, and the next interval. Intervals that passed since without a call had no arrival, so no queue stood; they
     * were idle if nothing is in flight (the ring stays), stalled otherwise (no answers).
     */
    private void roll(long now) {
        long late = now - intervalEnd;
        if (late < 0) {
            return;
        }
        queueStands = late < INTERVAL_NANOS && fewestMet != NO_ARRIVAL && 2L * fewestMet >= limit;
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
        fewestMet = NO_ARRIVAL;
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
        ceiling = (int) Math.max(limit, Math.min(Integer.MAX_VALUE, best));
    }
}
