package io.concurrencylab.cache;

import io.concurrencylab.support.SharedDatabase;
import io.concurrencylab.support.SharedRedis;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The same assertions against the packaged application, given a Redis as an operator would. */
@QuarkusIntegrationTest
@WithTestResource(SharedDatabase.class)
@WithTestResource(SharedRedis.class)
class CachedAggregateIT extends CachedAggregateTest {
}
