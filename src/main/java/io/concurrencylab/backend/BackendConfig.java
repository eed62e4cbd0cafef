package io.concurrencylab.backend;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/** The gateway's backends served by this process: on which ports (one instance each), and their seed. */
@ConfigMapping(prefix = "lab.backend")
public interface BackendConfig {

    /** One backend instance per port (0: any free port); none, no backend here (production's default). */
    Optional<List<Integer>> ports();

    /** The interface the instances listen on. */
    @WithDefault("127.0.0.1")
    String host();

    /** Instance i draws its latencies from a generator seeded with seed + i; the documents come from seed alone. */
    @WithDefault("4004")
    long seed();
}
