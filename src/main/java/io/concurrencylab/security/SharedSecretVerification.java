package io.concurrencylab.security;

import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.config.JWTAuthContextInfoProvider;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * HS256 with a raw shared secret in the {@code JWT_SECRET} environment variable, as article 001 does, when
 * {@code mp.jwt.verify.publickey.algorithm=HS256}. smallrye-jwt reads secret keys only in JWK form, so the
 * secret becomes a key here; everything else (issuer, clock skew, token header) stays the standard configuration.
 */
@ApplicationScoped
public class SharedSecretVerification {

    // A singleton, not a client proxy: SmallRye JWT reads a dozen settings from it per token, and each read through
    // a proxy looked the bean up again (0.7 to 1.4 % of a JWT + MySQL request, async-profiler).
    @Produces
    @Alternative
    @Priority(1)
    @Singleton
    JWTAuthContextInfo contextInfo(JWTAuthContextInfoProvider standard,
            @ConfigProperty(name = "mp.jwt.verify.publickey.algorithm", defaultValue = "RS256") String algorithm,
            @ConfigProperty(name = "JWT_SECRET") Optional<String> secret) {
        JWTAuthContextInfo configured = standard.getContextInfo();
        if (!SignatureAlgorithm.HS256.getAlgorithm().equalsIgnoreCase(algorithm)) {
            return configured;
        }
        String key = secret.filter(s -> !s.isBlank()).orElseThrow(() -> new IllegalStateException(
                "mp.jwt.verify.publickey.algorithm=HS256 needs the shared secret in the JWT_SECRET environment variable"));
        JWTAuthContextInfo hs256 = new JWTAuthContextInfo(configured);
        hs256.setSecretVerificationKey(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        hs256.setPublicVerificationKey(null);
        hs256.setPublicKeyLocation(null);
        hs256.setPublicKeyContent(null);
        hs256.setSignatureAlgorithm(Set.of(SignatureAlgorithm.HS256));
        return hs256;
    }
}
