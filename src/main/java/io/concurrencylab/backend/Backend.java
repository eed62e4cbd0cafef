package io.concurrencylab.backend;

import java.util.Random;

/**
 * The three backends of article 004 and their latency: a floor, an exponential tail, and for heavy rare spikes up to
 * its cap (means about 21, 20 and 69 ms; heavy's maximum 316 ms, the article's GC-driven tail). The latency is drawn
 * from a seeded generator and waited on a timer, so a backend adds latency without taking a thread or a core: under
 * load the gateway, not the backends, is what saturates.
 */
enum Backend {

    DATA(18, 3, 0, 120),
    PROCESS(17, 3, 0, 120),
    HEAVY(50, 17, 0.01, 316);

    private final double floorMs;
    private final double tailMeanMs;
    private final double spikeChance;
    private final long maxMs;

    Backend(double floorMs, double tailMeanMs, double spikeChance, long maxMs) {
        this.floorMs = floorMs;
        this.tailMeanMs = tailMeanMs;
        this.spikeChance = spikeChance;
        this.maxMs = maxMs;
    }

    String path() {
        return name().toLowerCase();
    }

    long drawLatencyMs(Random random) {
        double ms = floorMs - tailMeanMs * Math.log(1 - random.nextDouble());
        if (random.nextDouble() < spikeChance) {
            ms += random.nextDouble() * (maxMs - floorMs);
        }
        return Math.min(maxMs, Math.round(ms));
    }
}
