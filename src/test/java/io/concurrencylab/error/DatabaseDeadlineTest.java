package io.concurrencylab.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The reactive model's bound on one database call, on its own: the answer in time, else a 503 and the call cancelled. */
class DatabaseDeadlineTest {

    static final Vertx VERTX = Vertx.vertx();
    static final DatabaseDeadline DEADLINE = new DatabaseDeadline(VERTX, Duration.ofMillis(200));

    @AfterAll
    static void close() {
        VERTX.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void anAnswerInTimeIsTheAnswer() {
        assertEquals("user1", DEADLINE.bound(Uni.createFrom().item("user1")).await().atMost(Duration.ofSeconds(5)));
    }

    @Test
    void aFailureInTimeIsTheFailure() {
        IllegalStateException bug = new IllegalStateException("a bug");
        Throwable failure = failureOf(DEADLINE.bound(Uni.createFrom().failure(bug)));
        assertEquals(bug, failure);
    }

    @Test
    void noAnswerWithinTheDeadlineIsDatabaseUnavailableAndCancelsTheCall() {
        AtomicBoolean cancelled = new AtomicBoolean();
        long start = System.nanoTime();
        Throwable failure = failureOf(DEADLINE.bound(Uni.createFrom().nothing()
                .onCancellation().invoke(() -> cancelled.set(true))));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(ErrorCode.DATABASE_UNAVAILABLE, assertInstanceOf(ServiceException.class, failure).code());
        assertTrue(cancelled.get(), "the call was cancelled");
        assertTrue(millis >= 200 && millis < 2_000, "failed after " + millis + " ms");
    }

    private static Throwable failureOf(Uni<?> uni) {
        try {
            uni.await().atMost(Duration.ofSeconds(5));
            throw new AssertionError("no failure");
        } catch (CompletionException e) {
            return e.getCause();
        } catch (RuntimeException e) {
            return e;
        }
    }
}
