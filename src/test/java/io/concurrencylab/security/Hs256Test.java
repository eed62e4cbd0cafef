package io.concurrencylab.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.concurrencylab.support.ForeignTokens;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** HS256: tokens signed with the shared secret in JWT_SECRET, as in article 001. */
@QuarkusTest
@TestProfile(Hs256Test.Hs256.class)
class Hs256Test {

    static final String SECRET = "a-test-secret-of-more-than-thirty-two-bytes";
    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void acceptsTokensSignedWithTheSecret(String model) {
        given().auth().oauth2(Tokens.hs256("user9@example.com", SECRET))
                .when().get("/{model}/users/me", model)
                .then().statusCode(200).body("email", equalTo("user9@example.com"));
    }

    @ParameterizedTest
    @FieldSource("models")
    void acceptsArticle001sOwnTokensWithTheUserOnlyInEmail(String model) {
        String token = ForeignTokens.hs256(ForeignTokens.article001Claims("user10@example.com", Tokens.ISSUER), SECRET);
        given().auth().oauth2(token)
                .when().get("/{model}/users/me", model)
                .then().statusCode(200).body("email", equalTo("user10@example.com"));
    }

    @ParameterizedTest
    @FieldSource("models")
    void rejectsAnotherSecretAndRs256Tokens(String model) {
        given().auth().oauth2(Tokens.hs256("user9@example.com", SECRET + "-but-another-one"))
                .when().get("/{model}/users/me", model)
                .then().statusCode(401).body("error", equalTo("invalid_token"));
        given().auth().oauth2(Tokens.rs256("user9@example.com"))
                .when().get("/{model}/users/me", model)
                .then().statusCode(401).body("error", equalTo("invalid_token"));
    }

    public static class Hs256 implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("mp.jwt.verify.publickey.algorithm", "HS256", "JWT_SECRET", SECRET);
        }
    }
}
