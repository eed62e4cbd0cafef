package io.concurrencylab.aggregation;

/** The downstream's base record of a user (article 000: the 100 ms database call). */
public record BaseInfo(long id, String name) {
}
