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
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** An issuer that signs with an elliptic-curve key (ES256), its public key given as PEM. */
@QuarkusTest
@TestProfile(Es256Test.EllipticCurveIssuer.class)
class Es256Test {

    static final KeyPair KEY = ecKey();
    static final List<String> models = Models.ALL;

    @ParameterizedTest
    @FieldSource("models")
    void acceptsEs256TokensWithTheUserOnlyInEmail(String model) {
        given().auth().oauth2(ForeignTokens.es256(ForeignTokens.article001Claims("user12@example.com", Tokens.ISSUER),
                KEY.getPrivate(), null))
                .when().get("/{model}/users/me", model)
                .then().statusCode(200).body("email", equalTo("user12@example.com"));
    }

    @ParameterizedTest
    @FieldSource("models")
    void refusesAnotherCurveKey(String model) {
        given().auth().oauth2(ForeignTokens.es256(ForeignTokens.article001Claims("user12@example.com", Tokens.ISSUER),
                ecKey().getPrivate(), null))
                .when().get("/{model}/users/me", model)
                .then().statusCode(401).body("error", equalTo("invalid_token"));
    }

    static KeyPair ecKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public static class EllipticCurveIssuer implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                Path pem = Files.createTempFile("lab-ec-", ".pem");
                pem.toFile().deleteOnExit();
                Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\n"
                        + Base64.getMimeEncoder().encodeToString(KEY.getPublic().getEncoded())
                        + "\n-----END PUBLIC KEY-----\n");
                return Map.of("mp.jwt.verify.publickey.location", pem.toUri().toString(),
                        "mp.jwt.verify.publickey.algorithm", "ES256");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
