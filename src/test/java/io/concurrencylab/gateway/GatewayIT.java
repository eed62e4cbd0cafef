package io.concurrencylab.gateway;

import io.concurrencylab.support.SharedDatabase;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The same assertions against the packaged application (the jar, or the native executable with -Dnative). */
@QuarkusIntegrationTest
@WithTestResource(SharedDatabase.class)
class GatewayIT extends GatewayTest {
}
