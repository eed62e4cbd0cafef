package io.concurrencylab.aggregation;

/** The downstream's extra record of a user (article 000: the 500 ms call). */
public record ExtraInfo(long id, String phone, String level) {
}
