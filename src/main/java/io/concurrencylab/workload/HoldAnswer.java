package io.concurrencylab.workload;

/** The JSON answer of {@code GET /{model}/hold?ms=N}, sent after N ms. */
public record HoldAnswer(long heldMs) {
}
