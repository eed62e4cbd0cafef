package io.concurrencylab.virtual;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;

/**
 * Article 001 found virtual threads slowest because the MySQL driver of the time (Connector/J before 9.0) did its
 * socket I/O inside synchronized blocks, which pins a virtual thread to its carrier on JDK 21-23. These tests run on
 * whichever JDK runs the tests (CI runs them on 21 and 25) and fail if a request on the virtual model pins.
 * <p>
 * Such a pin lasts about as long as a database round trip, a millisecond or less here, so the JFR recording keeps
 * every jdk.VirtualThreadPinned event whatever its duration (JFR's default settings drop those under 20 ms), and
 * {@link #aMillisecondPinIsCaught()} checks that it does in this JVM. The recording is started inside each test
 * rather than by Quarkus' {@code @ShouldNotPin}, which watches the whole method: the first requests load classes, and
 * class loading blocks on monitors, which JDK 24+ reports as pins, once per class; they are not what is tested here.
 */
@QuarkusTest
class VirtualThreadPinningTest {

    /**
     * Enough lookups, enough at once, that the driver's reads have to wait for the database, which is when it pins; at
     * most as many at once as the first gate lets in on an app that has answered few yet (lab.overload.min-in-flight).
     */
    private static final int LOOKUPS = 200;
    private static final int AT_ONCE = 8;

    @TestHTTPResource("/virtual/users/me")
    URI me;

    @Test
    void jwtAndMysqlLookupsDoNotPin() throws Exception {
        // A second witness besides JFR: on JDK 21-23, -Djdk.tracePinnedThreads (set in the pom) has the JVM print the
        // stack of a thread that parks while pinned to System.out, each distinct stack once per JVM, a frame that
        // holds a monitor marked "<== monitors". JDK 24 and later ignore the property. Both rounds are watched here,
        // since a stack printed in the first would not be printed again.
        PrintStream console = System.out;
        ByteArrayOutputStream trace = new ByteArrayOutputStream();
        System.setOut(new PrintStream(new Tee(console, trace), true));
        List<RecordedEvent> pins;
        try {
            lookUpAllAtOnce();
            try (PinRecording recording = new PinRecording()) {
                lookUpAllAtOnce();
                pins = recording.stop();
            }
        } finally {
            System.setOut(console);
        }
        assertTrue(pins.isEmpty(), () -> describe(pins));
        assertFalse(trace.toString().contains("<== monitors"), () -> "a virtual thread parked while pinned:\n" + trace);
    }

    @Test
    void aggregationDoesNotPin() {
        given().get("/virtual/users/{id}/aggregate", 1).then().statusCode(200);
        try (PinRecording recording = new PinRecording()) {
            for (int id = 2; id <= 4; id++) {
                given().get("/virtual/users/{id}/aggregate", id).then().statusCode(200);
            }
            List<RecordedEvent> pins = recording.stop();
            assertTrue(pins.isEmpty(), () -> describe(pins));
        }
    }

    /**
     * The recording's own check: parking inside a class initializer pins a virtual thread on every JDK (JEP 491 left
     * that case), here for a millisecond, as long as a pin by the driver lasts. If this failed, a recording that saw
     * no pin above would prove nothing.
     */
    @Test
    void aMillisecondPinIsCaught() throws InterruptedException {
        try (PinRecording recording = new PinRecording()) {
            Thread.ofVirtual().start(ParksWhileInitialized::load).join();
            List<RecordedEvent> pins = recording.stop();
            assertTrue(pins.stream().anyMatch(VirtualThreadPinningTest::inParksWhileInitialized), () -> describe(pins));
        }
    }

    /** LOOKUPS lookups of distinct users, AT_ONCE at a time, each answered 200. */
    private void lookUpAllAtOnce() throws Exception {
        // Platform threads on the client side: only the app's virtual threads should be able to pin.
        try (HttpClient http = HttpClient.newHttpClient();
                ExecutorService clients = Executors.newFixedThreadPool(AT_ONCE)) {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int n = 1; n <= LOOKUPS; n++) {
                HttpRequest lookup = HttpRequest.newBuilder(me)
                        .header("Authorization", "Bearer " + Tokens.rs256("user" + n + "@example.com")).build();
                answers.add(clients.submit(() -> http.send(lookup, HttpResponse.BodyHandlers.discarding()).statusCode()));
            }
            for (Future<Integer> answer : answers) {
                assertEquals(200, answer.get());
            }
        }
    }

    private static String describe(List<RecordedEvent> pins) {
        if (pins.isEmpty()) {
            return "no jdk.VirtualThreadPinned event";
        }
        RecordedEvent first = pins.get(0);
        // The JDK's own frames (the park, the socket read) say how, the first frames outside it say who.
        String stack = first.getStackTrace() == null ? "  (no stack)"
                : first.getStackTrace().getFrames().stream().dropWhile(VirtualThreadPinningTest::inJdk).limit(8)
                        .map(VirtualThreadPinningTest::frame).collect(Collectors.joining("\n"));
        return pins.size() + " jdk.VirtualThreadPinned event(s); the first, " + first.getDuration().toNanos() / 1_000
                + " µs, from:\n" + stack;
    }

    private static boolean inParksWhileInitialized(RecordedEvent pin) {
        return pin.getStackTrace() != null && pin.getStackTrace().getFrames().stream()
                .anyMatch(frame -> frame.getMethod().getType().getName().equals(ParksWhileInitialized.class.getName()));
    }

    private static boolean inJdk(RecordedFrame frame) {
        String type = frame.getMethod().getType().getName();
        return type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun.");
    }

    private static String frame(RecordedFrame frame) {
        return "  " + frame.getMethod().getType().getName() + "." + frame.getMethod().getName() + ":"
                + frame.getLineNumber();
    }

    /** jdk.VirtualThreadPinned events of this JVM while it is open, with their stacks. */
    private static final class PinRecording implements AutoCloseable {
        private static final String PINNED = "jdk.VirtualThreadPinned";
        private final RecordingStream stream = new RecordingStream();
        private final List<RecordedEvent> pins = new CopyOnWriteArrayList<>();

        PinRecording() {
            stream.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
            stream.onEvent(PINNED, pins::add);
            stream.startAsync();
        }

        /** Stops the recording and returns its events once the stream has delivered every one of them. */
        List<RecordedEvent> stop() {
            stream.stop();
            return List.copyOf(pins);
        }

        @Override
        public void close() {
            stream.close();
        }
    }

    private static final class ParksWhileInitialized {
        static {
            LockSupport.parkNanos(1_000_000);
        }

        static void load() {
        }
    }

    /** Writes what the JVM prints to the console and keeps a copy. */
    private static final class Tee extends OutputStream {
        private final OutputStream console;
        private final OutputStream copy;

        Tee(OutputStream console, OutputStream copy) {
            this.console = console;
            this.copy = copy;
        }

        @Override
        public void write(int b) throws IOException {
            console.write(b);
            copy.write(b);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            console.write(bytes, offset, length);
            copy.write(bytes, offset, length);
        }
    }
}
