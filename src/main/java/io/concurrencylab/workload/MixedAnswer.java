package io.concurrencylab.workload;

/**
 * The JSON answer of {@code GET /{model}/mixed?cpu=N} and {@code /mixed/offload}: the downstream's answer (the I/O
 * part), the number of SHA-256 rounds and their digest (the CPU part), and whether the rounds ran on the CPU pool.
 */
public record MixedAnswer(String downstream, int cpu, String digest, boolean offloaded) {

    /** Whose base record the I/O part fetches: any known user; the call's 100 ms is what matters. */
    public static final long DOWNSTREAM_USER = 1;
}
