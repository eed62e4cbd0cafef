package io.concurrencylab.overload;

/**
 * The kinds of work that {@link ConcurrencyLimit} counts apart, per model. A report holds a pooled connection as a
 * lookup does, so it has the lookups' limit, but its own count: a burst of reports does not shed lookups.
 */
public enum WorkKind {
    /** {@code /{model}/users/me}: a primary-key select. */
    LOOKUP,
    /** {@code /{model}/users/me/report}: eight reads and an insert in one transaction. */
    REPORT,
    /** {@code /{model}/users/{id}/aggregate[/cached|/sequential]}: three downstream calls, 600-900 ms of waiting. */
    AGGREGATION
}
