package io.concurrencylab;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The same assertions against the packaged application (the jar, or the native executable with -Dnative). */
@QuarkusIntegrationTest
class UserMeIT extends UserMeTest {
}
