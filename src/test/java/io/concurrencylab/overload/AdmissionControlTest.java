package io.concurrencylab.overload;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The first gate with a limit of one request in progress: while one is held, the next is answered 503
 * service_overloaded with Retry-After before its token is read (a bad token gets the 503, not a 401), and once the
 * held one ends, requests are served again. Priorities are off here, so that the gate sheds whatever the machine's CPU
 * load; in a pod it sheds ordinary requests only while the CPU is busy.
 */
@QuarkusTest
@TestProfile(AdmissionControlTest.OneAtATime.class)
class AdmissionControlTest {

    static final List<String> models = Models.ALL;

    public static class OneAtATime implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("lab.overload.admission-control", "true", "quarkus.load-shedding.initial-limit", "1",
                    "quarkus.load-shedding.max-limit", "1", "quarkus.load-shedding.priority.enabled", "false");
        }
    }

    @ParameterizedTest
    @FieldSource("models")
    void pastTheLimitARequestIsShedBeforeItsTokenIsRead(String model) throws Exception {
        given().queryParam("ms", 0).get("/{model}/hold", model).then().statusCode(200); // the client and route warm
        CompletableFuture<Response> held = CompletableFuture.supplyAsync(
                () -> given().queryParam("ms", 3000).get("/{model}/hold", model));
        PackagedApp.sleep(1000); // the held request is in progress

        Response shed = given().auth().oauth2("not-a-jwt").get("/{model}/users/me", model);
        assertEquals(503, shed.statusCode(), shed.asString());
        assertEquals("service_overloaded", shed.jsonPath().getString("error"));
        assertEquals(503, shed.jsonPath().getInt("status"));
        assertEquals("1", shed.header("Retry-After"));

        assertEquals(200, held.get().statusCode(), "the held request itself");
        given().auth().oauth2("not-a-jwt").get("/{model}/users/me", model).then().statusCode(401);
        given().auth().oauth2(Tokens.rs256("user21@example.com")).get("/{model}/users/me", model).then()
                .statusCode(200);
    }
}
