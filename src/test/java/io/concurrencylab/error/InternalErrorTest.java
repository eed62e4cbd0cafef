package io.concurrencylab.error;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.mutiny.Uni;
import io.vertx.core.impl.NoStackTraceThrowable;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;

/** A plain bug is neither an outage nor a gateway error: 500 internal_error with an incident id, no trace. */
@QuarkusTest
class InternalErrorTest {

    @Test
    void aBugAnswers500WithAnIncidentIdAndNoTrace() {
        given().get("/test-only/bug")
                .then().statusCode(500).contentType(ContentType.JSON)
                .body("status", equalTo(500), "error", equalTo("internal_error"))
                .body("incident", matchesPattern("[0-9a-f-]{36}"))
                .body(not(containsString("NullPointer")), not(containsString("at io.")));
    }

    @Test
    void aBareThrowableFromVertxIsInTheContractToo() {
        given().get("/test-only/bug/throwable")
                .then().statusCode(500).contentType(ContentType.JSON)
                .body("error", equalTo("internal_error"), "incident", matchesPattern("[0-9a-f-]{36}"));
    }

    /** Exists in tests only: a resource with bugs. */
    @Path("/test-only/bug")
    public static class BuggyResource {

        @GET
        public String bug() {
            String missing = System.getProperty("no.such.property.anywhere");
            return missing.trim();
        }

        /** Vert.x fails some operations with NoStackTraceThrowable, which is not an Exception. */
        @GET
        @Path("/throwable")
        public Uni<String> throwable() {
            return Uni.createFrom().failure(new NoStackTraceThrowable("Timeout"));
        }
    }
}
