package io.concurrencylab.report;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.concurrencylab.support.Models;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * {@code POST /{model}/users/me/report}: eight reads and an insert in one transaction, article 003's kind of request.
 * Every model answers the same figures, and each report is recorded.
 */
@QuarkusTest
class ReportTest {

    static final List<String> models = Models.ALL;

    @Test
    void everyModelReportsTheSameFiguresAndRecordsEachReport() {
        String token = Tokens.rs256("user19@example.com");
        List<Map<String, Object>> reports = new ArrayList<>();
        for (String model : Models.ALL) {
            JsonPath report = given().auth().oauth2(token).post("/{model}/users/me/report", model)
                    .then().statusCode(200).contentType(ContentType.JSON)
                    .body("email", equalTo("user19@example.com"), "city", equalTo("Austin"), "county", equalTo("Osaka"))
                    .extract().jsonPath();
            reports.add(report.getMap(""));
        }
        long first = ((Number) reports.get(0).get("reportsBefore")).longValue();
        for (int i = 0; i < reports.size(); i++) {
            Map<String, Object> report = new HashMap<>(reports.get(i));
            assertEquals(first + i, ((Number) report.remove("reportsBefore")).longValue(), "one more report each time");
            Map<String, Object> virtual = new HashMap<>(reports.get(0));
            virtual.remove("reportsBefore");
            assertEquals(virtual, report, Models.ALL.get(i) + " vs virtual");
        }
    }

    @ParameterizedTest
    @FieldSource("models")
    void theFiguresAreThoseOfTheSeededUsers(String model) {
        // 2,000 seeded users; user n lives in CITY[n % 9] and COUNTY[n % 7] and is 18 + n % 70 years old.
        long austin = countSeeded(n -> n % 9 == 19 % 9);
        long osaka = countSeeded(n -> n % 7 == 19 % 7);
        long sameAge = countSeeded(n -> n % 70 == 19 % 70);
        given().auth().oauth2(Tokens.rs256("user19@example.com")).post("/{model}/users/me/report", model)
                .then().statusCode(200)
                .body("cityUsers", equalTo((int) austin), "countyUsers", equalTo((int) osaka),
                        "sameAge", equalTo((int) sameAge));
    }

    @ParameterizedTest
    @FieldSource("models")
    void answersTheErrorContract(String model) {
        given().post("/{model}/users/me/report", model).then().statusCode(401).body("error", equalTo("invalid_token"));
        given().auth().oauth2(Tokens.rs256("nobody@example.com")).post("/{model}/users/me/report", model)
                .then().statusCode(404).body("error", equalTo("user_not_found"));
    }

    private static long countSeeded(IntPredicate predicate) {
        return IntStream.rangeClosed(1, 2000).filter(predicate).count();
    }
}
