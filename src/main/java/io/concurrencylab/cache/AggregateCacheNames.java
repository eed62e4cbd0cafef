package io.concurrencylab.cache;

/** The names the aggregate cache goes by, locally and in Redis (README: "Cached aggregation"). */
final class AggregateCacheNames {

    /** The local tier, configured as {@code quarkus.cache.caffeine."aggregate".*}. */
    static final String LOCAL = "aggregate";

    /** The channel every replica listens on; a message is a user id in decimal. */
    static final String INVALIDATIONS = "lab:aggregate:invalidations";

    private AggregateCacheNames() {
    }

    /** The Redis key of a user's aggregate; its value is the aggregate's JSON. */
    static String redisKey(long id) {
        return "lab:aggregate:" + id;
    }
}
