package io.concurrencylab.aggregation;

/** The downstream's detail record of a user (article 000: the 300 ms call). */
public record DetailInfo(long id, int age, String sex) {
}
