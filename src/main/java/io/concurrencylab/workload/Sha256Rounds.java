package io.concurrencylab.workload;

import jakarta.enterprise.context.ApplicationScoped;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The CPU part of mixed: N rounds of SHA-256, each over the previous round's digest followed by a fixed 4 KB buffer,
 * starting from 32 zero bytes (0 rounds: the zeros). Each round needs the one before, so none can be skipped or run in
 * parallel, and a round allocates only its 32-byte digest: the cost is CPU, not allocation (a few microseconds a round).
 */
@ApplicationScoped
public class Sha256Rounds {

    /** The bytes 0, 1, ..., 255, sixteen times. */
    static final byte[] BUFFER = new byte[4096];

    static {
        for (int i = 0; i < BUFFER.length; i++) {
            BUFFER[i] = (byte) i;
        }
    }

    public String digest(int rounds) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
        byte[] state = new byte[32];
        for (int round = 0; round < rounds; round++) {
            sha256.update(state);
            state = sha256.digest(BUFFER);
        }
        return HexFormat.of().formatHex(state);
    }
}
