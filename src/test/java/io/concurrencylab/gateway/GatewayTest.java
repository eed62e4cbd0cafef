package io.concurrencylab.gateway;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.TestProfileConfig;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * {@code /{model}/gateway/api/{data|process|heavy}} against the two backend instances the app serves on ports of their
 * own in tests (real HTTP both ways): prefix stripped, headers added, JSON parsed and annotated, instances taken in turn,
 * backend failures answered 502/504 in JSON. Against the packaged jar too ({@link GatewayIT}); on which thread each model
 * answers: {@link ThreadModelTest}.
 */
@QuarkusTest
class GatewayTest {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void forwardsDataWithoutThePrefixAndWithTheHeaders(String model) {
        ExtractableResponse<Response> response = given().when().get("/{model}/gateway/api/data", model)
                .then().statusCode(200).contentType(ContentType.JSON)
                .body("backend", equalTo("data"), "request.method", equalTo("GET"),
                        "request.path", equalTo("/api/data"),
                        "request.forwardedPrefix", equalTo("/" + model + "/gateway"),
                        "payload", hasSize(32),
                        "_gateway.model", equalTo(model), "_gateway.took_ms", greaterThanOrEqualTo(0))
                .extract();
        String instance = response.path("_gateway.instance");
        assertEquals(instance, response.header("X-Gateway-Instance"));
        assertEquals(instance, response.path("request.host"));
    }

    @ParameterizedTest
    @FieldSource("models")
    void forwardsHeavy(String model) {
        given().when().get("/{model}/gateway/api/heavy", model)
                .then().statusCode(200).contentType(ContentType.JSON)
                .body("backend", equalTo("heavy"), "payload", hasSize(128), "payload[127].index", equalTo(127),
                        // heavy's latency has a 50 ms floor, on the backend's timer
                        "_gateway.model", equalTo(model), "_gateway.took_ms", greaterThanOrEqualTo(50));
    }

    @ParameterizedTest
    @FieldSource("models")
    void forwardsTheBodyOfProcess(String model) {
        given().contentType(ContentType.JSON).body("{\"order\":7,\"lines\":[{\"sku\":\"a\",\"qty\":2}]}")
                .when().post("/{model}/gateway/api/process", model)
                .then().statusCode(200).contentType(ContentType.JSON)
                .body("backend", equalTo("process"), "request.method", equalTo("POST"),
                        "request.path", equalTo("/api/process"), "payload.order", equalTo(7),
                        "payload.lines[0].qty", equalTo(2), "_gateway.model", equalTo(model));
    }

    @ParameterizedTest
    @FieldSource("models")
    void takesTheTwoInstancesInTurn(String model) {
        List<String> served = IntStream.range(0, 4)
                .mapToObj(i -> given().when().get("/{model}/gateway/api/data", model)
                        .then().statusCode(200).extract().<String>path("_gateway.instance"))
                .toList();
        assertNotEquals(served.get(0), served.get(1), served.toString());
        assertEquals(served.subList(0, 2), served.subList(2, 4), served.toString());
    }

    @ParameterizedTest
    @FieldSource("models")
    void answers502JsonWhenTheBackendFails(String model) {
        for (String status : List.of("500", "503", "404")) {
            given().queryParam("status", status).when().get("/{model}/gateway/api/data", model)
                    .then().statusCode(502).contentType(ContentType.JSON)
                    .body("status", equalTo(502), "error", equalTo("downstream_error"));
        }
        given().contentType(ContentType.JSON).body("not json").when().post("/{model}/gateway/api/process", model)
                .then().statusCode(502).contentType(ContentType.JSON).body("error", equalTo("downstream_error"));
    }

    @ParameterizedTest
    @FieldSource("models")
    void answers504JsonWhenTheBackendIsTooSlow(String model) {
        long readTimeoutMs = TestProfileConfig.duration("lab.gateway.read-timeout").toMillis();
        given().queryParam("delay_ms", readTimeoutMs + 3_000).when().get("/{model}/gateway/api/heavy", model)
                .then().statusCode(504).contentType(ContentType.JSON)
                .body("status", equalTo(504), "error", equalTo("downstream_timeout"))
                .time(lessThan(readTimeoutMs + 2_000));
    }

    @ParameterizedTest
    @FieldSource("models")
    void answers404JsonForAnUnknownBackend(String model) {
        given().when().get("/{model}/gateway/api/nope", model)
                .then().statusCode(404).contentType(ContentType.JSON).body("status", equalTo(404));
    }

    @Test
    void everyModelAnswersTheSameDocuments() {
        // Generated from the seed: the same in both instances, whichever serves each model.
        List<Object> payloads = Models.ALL.stream()
                .map(model -> given().when().get("/{model}/gateway/api/heavy", model)
                        .then().statusCode(200).extract().<Object>path("payload"))
                .toList();
        assertEquals(payloads.get(0), payloads.get(1));
        assertEquals(payloads.get(0), payloads.get(2));
    }
}
