package io.concurrencylab;

import static io.restassured.RestAssured.given;

import io.concurrencylab.tokens.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit5.virtual.ShouldNotPin;
import io.quarkus.test.junit5.virtual.VirtualThreadUnit;
import org.junit.jupiter.api.Test;

/**
 * Article 001 found virtual threads slowest because the MySQL driver of the time pinned them to their carrier.
 * JFR watches for jdk.VirtualThreadPinned while the virtual-thread endpoints do their real work.
 */
@QuarkusTest
@VirtualThreadUnit
@ShouldNotPin
class VirtualThreadPinningTest {

    @Test
    void jwtAndMysqlLookupDoesNotPin() {
        for (int n = 1; n <= 20; n++) {
            given().auth().oauth2(Tokens.rs256("user" + n + "@example.com"))
                    .get("/virtual/users/me").then().statusCode(200);
        }
    }

    @Test
    void aggregationDoesNotPin() {
        for (int id = 1; id <= 3; id++) {
            given().get("/virtual/users/{id}/aggregate", id).then().statusCode(200);
        }
    }
}
