package io.concurrencylab.user;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.concurrencylab.support.ForeignTokens;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.smallrye.jwt.build.Jwt;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code GET /{model}/users/me}: a verified token's email claim, looked up in the real database. */
@QuarkusTest
class UserMeTest {

    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void answersTheSeededRowOfTheTokensUser(String model) {
        given().auth().oauth2(Tokens.rs256("user5@example.com"))
                .when().get("/{model}/users/me", model)
                .then().statusCode(200).contentType(ContentType.JSON)
                .body(equalTo("""
                        {"email":"user5@example.com","first":"Ken","last":"Lovelace","city":"Osaka","county":"Osaka","age":23}"""));
    }

    @ParameterizedTest
    @FieldSource("models")
    void acceptsArticle001sTokenShapeWithTheUserOnlyInEmail(String model) {
        String token = ForeignTokens.rs256(ForeignTokens.article001Claims("user6@example.com", Tokens.ISSUER),
                Tokens.devPrivateKey(), null);
        given().auth().oauth2(token)
                .when().get("/{model}/users/me", model)
                .then().statusCode(200).body("email", equalTo("user6@example.com"));
    }

    @Test
    void everyModelAnswersTheSameJsonForTheSameTokenFor1000RandomUsers() {
        Random random = new Random(20260);
        for (int i = 0; i < 1000; i++) {
            String email = "user" + (1 + random.nextInt(2000)) + "@example.com";
            String token = Tokens.rs256(email);
            List<String> bodies = new ArrayList<>();
            for (String model : Models.ALL) {
                bodies.add(given().auth().oauth2(token).get("/{model}/users/me", model)
                        .then().statusCode(200).body("email", equalTo(email)).extract().asString());
            }
            assertEquals(bodies.get(0), bodies.get(1), "virtual vs worker for " + email);
            assertEquals(bodies.get(0), bodies.get(2), "virtual vs reactive for " + email);
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badTokens")
    void rejectsBadTokensWith401Json(String model, String why, UnaryOperator<RequestSpecification> authorization) {
        Response response = authorization.apply(given())
                .when().get("/{model}/users/me", model)
                .then().statusCode(401).contentType(ContentType.JSON)
                .body("status", equalTo(401), "error", equalTo("invalid_token"))
                .body(not(containsString("Exception")))
                .extract().response();
        assertEquals(List.of("Bearer"), response.headers().getValues("WWW-Authenticate"), "one challenge");
    }

    static Stream<Arguments> badTokens() {
        String email = "user7@example.com";
        String valid = Tokens.rs256(email);
        String[] parts = valid.split("\\.");
        String otherPayload = Tokens.rs256("user8@example.com").split("\\.")[1];
        List<Arguments> cases = new ArrayList<>();
        for (String model : Models.ALL) {
            cases.add(Arguments.of(model, "no Authorization header", auth(r -> r)));
            cases.add(Arguments.of(model, "not a JWT", bearer("not-a-jwt")));
            cases.add(Arguments.of(model, "not a bearer scheme", auth(r -> r.header("Authorization", "Basic dXNlcjpwdw=="))));
            cases.add(Arguments.of(model, "expired", bearer(Jwt.issuer(Tokens.ISSUER).upn(email).claim("email", email)
                    .issuedAt(Instant.now().minus(Duration.ofHours(2))).expiresAt(Instant.now().minus(Duration.ofHours(1)))
                    .sign(Tokens.devPrivateKey()))));
            cases.add(Arguments.of(model, "signed by another key",
                    bearer(Tokens.claimsFor(email, Tokens.ISSUER, Duration.ofHours(1)).sign(otherKey()))));
            cases.add(Arguments.of(model, "tampered payload", bearer(parts[0] + "." + otherPayload + "." + parts[2])));
            cases.add(Arguments.of(model, "wrong issuer",
                    bearer(Tokens.claimsFor(email, "https://evil.example/issuer", Duration.ofHours(1)).sign(Tokens.devPrivateKey()))));
            cases.add(Arguments.of(model, "alg none", bearer(Tokens.unsigned(email))));
            cases.add(Arguments.of(model, "HS256 while RS256 is configured",
                    bearer(Tokens.hs256(email, "a-shared-secret-that-is-long-enough-for-hs256"))));
            cases.add(Arguments.of(model, "no email claim", bearer(Jwt.issuer(Tokens.ISSUER).upn(email)
                    .expiresIn(Duration.ofHours(1)).sign(Tokens.devPrivateKey()))));
            for (String notAString : List.of("42", "true", "[\"" + email + "\"]", "{\"address\":\"" + email + "\"}")) {
                cases.add(Arguments.of(model, "email claim " + notAString, bearer(ForeignTokens.rs256(
                        "{\"email\":" + notAString + ",\"iss\":\"" + Tokens.ISSUER + "\",\"exp\":"
                                + (Instant.now().getEpochSecond() + 3600) + "}", Tokens.devPrivateKey(), null))));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest
    @FieldSource("models")
    void answers404JsonForAValidTokenOfAnUnknownUser(String model) {
        given().auth().oauth2(Tokens.rs256("nobody@example.com"))
                .when().get("/{model}/users/me", model)
                .then().statusCode(404).contentType(ContentType.JSON)
                .body("status", equalTo(404), "error", equalTo("user_not_found"));
    }

    private static UnaryOperator<RequestSpecification> bearer(String token) {
        return auth(r -> r.header("Authorization", "Bearer " + token));
    }

    private static UnaryOperator<RequestSpecification> auth(UnaryOperator<RequestSpecification> op) {
        return op;
    }

    private static PrivateKey otherKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair().getPrivate();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
