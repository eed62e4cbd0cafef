package io.concurrencylab.downstream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How slow the simulated downstream service is. */
@ConfigMapping(prefix = "downstream.delay")
public interface DownstreamConfig {

    @WithDefault("100ms")
    Duration base();

    @WithDefault("300ms")
    Duration detail();

    @WithDefault("500ms")
    Duration extra();
}
