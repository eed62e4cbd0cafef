package io.concurrencylab.aggregation;

import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Settings every model's aggregation shares. */
@ConfigMapping(prefix = "lab.aggregate")
public interface AggregationConfig {

    /**
     * How long an aggregation may take in all, in every model; past it the answer is 504 {@code aggregate_deadline}
     * and the calls still pending are cancelled. Widen it to watch queueing grow instead.
     */
    @WithDefault("6s")
    Duration deadline();

    /** The answer of every model when the deadline passes. */
    static ServiceException deadlineExceeded() {
        return new ServiceException(ErrorCode.AGGREGATE_DEADLINE);
    }
}
