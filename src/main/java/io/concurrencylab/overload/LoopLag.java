package io.concurrencylab.overload;

/**
 * Whether one event loop is behind: how late it ran a timer due every {@link #TICK_NANOS}, against a bound. A loop
 * behind leaves the requests in its sockets waiting before the first gate sees them, where the in-flight limit cannot
 * count them. Within 0.5 CPU the lookups that limit let in took the CPU the gate needed to answer the rest: 0.3 to
 * 38 % of a burst at 2.5 times the executable's capacity went unanswered within 1 s.
 * <p>
 * One late tick is a stall (a class loaded, a collection), not a queue: the loop is behind once a second tick in a row
 * runs, or is overdue, past the bound. Written by the loop's own timer, read by its own requests: one thread, no lock.
 */
final class LoopLag {

    static final long TICK_NANOS = 10_000_000;

    private final long boundNanos;
    private long due;
    private int lateInARow;

    LoopLag(long boundNanos, long now) {
        this.boundNanos = boundNanos;
        this.due = now + TICK_NANOS;
    }

    /** The timer ran at {@code now}; the next one is due a tick later. */
    void ticked(long now) {
        lateInARow = now - due > boundNanos ? lateInARow + 1 : 0;
        due = now + TICK_NANOS;
    }

    /** Whether the last two ticks ran past the bound, or the last one did and the one due is past it too. */
    boolean behind(long now) {
        return lateInARow >= 2 || lateInARow == 1 && now - due > boundNanos;
    }
}
