package io.concurrencylab.support;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Tokens minted the way other issuers mint them, with the JDK's own crypto and no JWT library: only the claims
 * they need, in the order they write them. Article 001's issuer (jjwt, HS256 over the raw secret) writes
 * {@code {email, iss, iat, exp}} and nothing else: no {@code sub}, no {@code upn}.
 */
public final class ForeignTokens {

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private ForeignTokens() {
    }

    /** Article 001's claims: the user only in {@code email}. */
    public static String article001Claims(String email, String issuer) {
        long now = Instant.now().getEpochSecond();
        return "{\"email\":\"" + email + "\",\"iss\":\"" + issuer + "\",\"iat\":" + now + ",\"exp\":" + (now + 3600) + "}";
    }

    public static String hs256(String claimsJson, String rawSecret) {
        String signingInput = signingInput("{\"alg\":\"HS256\"}", claimsJson);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(rawSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return signingInput + "." + B64.encodeToString(mac.doFinal(ascii(signingInput)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** RS256; {@code kid} may be null. */
    public static String rs256(String claimsJson, PrivateKey key, String kid) {
        String signingInput = signingInput(header("RS256", kid), claimsJson);
        return signingInput + "." + B64.encodeToString(sign("SHA256withRSA", key, signingInput));
    }

    /** ES256: JOSE wants the raw R and S, 32 bytes each, where the JDK writes DER. */
    public static String es256(String claimsJson, PrivateKey key, String kid) {
        String signingInput = signingInput(header("ES256", kid), claimsJson);
        return signingInput + "." + B64.encodeToString(derToJose(sign("SHA256withECDSA", key, signingInput)));
    }

    private static String header(String alg, String kid) {
        return kid == null ? "{\"alg\":\"" + alg + "\",\"typ\":\"JWT\"}"
                : "{\"alg\":\"" + alg + "\",\"typ\":\"JWT\",\"kid\":\"" + kid + "\"}";
    }

    private static String signingInput(String header, String claims) {
        return B64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + B64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] sign(String algorithm, PrivateKey key, String signingInput) {
        try {
            Signature signature = Signature.getInstance(algorithm);
            signature.initSign(key);
            signature.update(ascii(signingInput));
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** DER SEQUENCE { INTEGER r, INTEGER s } to r || s, each left-padded to 32 bytes. */
    private static byte[] derToJose(byte[] der) {
        int offset = der[1] == (byte) 0x81 ? 3 : 2;
        int rLength = der[offset + 1];
        byte[] r = Arrays.copyOfRange(der, offset + 2, offset + 2 + rLength);
        int sStart = offset + 2 + rLength;
        byte[] s = Arrays.copyOfRange(der, sStart + 2, sStart + 2 + der[sStart + 1]);
        byte[] jose = new byte[64];
        copyRightAligned(r, jose, 0);
        copyRightAligned(s, jose, 32);
        return jose;
    }

    private static void copyRightAligned(byte[] integer, byte[] target, int at) {
        int length = Math.min(integer.length, 32);
        System.arraycopy(integer, integer.length - length, target, at + 32 - length, length);
    }
}
