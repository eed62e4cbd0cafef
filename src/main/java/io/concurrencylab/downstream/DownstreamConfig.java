package io.concurrencylab.downstream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The simulated downstream service: how slow it is and which users it knows. */
@ConfigMapping(prefix = "downstream")
public interface DownstreamConfig {

    /** Users 1..N exist; any other id answers 404. */
    @WithDefault("100000")
    long users();

    Delay delay();

    interface Delay {

        @WithDefault("100ms")
        Duration base();

        @WithDefault("300ms")
        Duration detail();

        @WithDefault("500ms")
        Duration extra();
    }
}
