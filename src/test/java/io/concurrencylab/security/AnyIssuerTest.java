package io.concurrencylab.security;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.concurrencylab.support.ForeignTokens;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * An issuer that publishes a JWKS with two keys (a rotation: tokens signed with either, chosen by {@code kid}) and
 * puts an audience in its tokens, configured only through the standard MicroProfile JWT properties.
 */
@QuarkusTest
@TestProfile(AnyIssuerTest.RotatingIssuer.class)
class AnyIssuerTest {

    static final String ISSUER = "https://idp.example/realms/lab";
    static final String AUDIENCE = "concurrency-lab";
    static final KeyPair OLD_KEY = rsa();
    static final KeyPair NEW_KEY = rsa();
    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void acceptsTokensSignedWithEitherKeyOfTheJwks(String model) {
        for (var key : Map.of("old", OLD_KEY, "new", NEW_KEY).entrySet()) {
            given().auth().oauth2(ForeignTokens.rs256(claims("user11@example.com", AUDIENCE), key.getValue().getPrivate(),
                    key.getKey()))
                    .when().get("/{model}/users/me", model)
                    .then().statusCode(200).body("email", equalTo("user11@example.com"));
        }
    }

    @ParameterizedTest
    @FieldSource("models")
    void refusesAnUnknownKidAnotherAudienceAndNoAudience(String model) {
        given().auth().oauth2(ForeignTokens.rs256(claims("user11@example.com", AUDIENCE), rsa().getPrivate(), "other"))
                .when().get("/{model}/users/me", model).then().statusCode(401).body("error", equalTo("invalid_token"));
        given().auth().oauth2(ForeignTokens.rs256(claims("user11@example.com", "another-api"), NEW_KEY.getPrivate(), "new"))
                .when().get("/{model}/users/me", model).then().statusCode(401).body("error", equalTo("invalid_token"));
        given().auth().oauth2(ForeignTokens.rs256(ForeignTokens.article001Claims("user11@example.com", ISSUER),
                NEW_KEY.getPrivate(), "new"))
                .when().get("/{model}/users/me", model).then().statusCode(401).body("error", equalTo("invalid_token"));
        given().auth().oauth2(Tokens.rs256("user11@example.com"))
                .when().get("/{model}/users/me", model).then().statusCode(401).body("error", equalTo("invalid_token"));
    }

    static String claims(String email, String audience) {
        long now = Instant.now().getEpochSecond();
        return "{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + audience + "\",\"email\":\"" + email + "\",\"iat\":" + now
                + ",\"exp\":" + (now + 600) + "}";
    }

    static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String jwk(String kid, RSAPublicKey key) {
        return "{\"kty\":\"RSA\",\"use\":\"sig\",\"alg\":\"RS256\",\"kid\":\"" + kid + "\",\"n\":\"" + b64(key.getModulus())
                + "\",\"e\":\"" + b64(key.getPublicExponent()) + "\"}";
    }

    static String b64(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes[0] == 0) {
            bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public static class RotatingIssuer implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                Path jwks = Files.createTempFile("lab-jwks-", ".json");
                jwks.toFile().deleteOnExit();
                Files.writeString(jwks, "{\"keys\":[" + jwk("old", (RSAPublicKey) OLD_KEY.getPublic()) + ","
                        + jwk("new", (RSAPublicKey) NEW_KEY.getPublic()) + "]}");
                return Map.of("mp.jwt.verify.publickey.location", jwks.toUri().toString(),
                        "mp.jwt.verify.issuer", ISSUER, "mp.jwt.verify.audiences", AUDIENCE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
