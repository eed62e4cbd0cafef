package io.concurrencylab.error;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The reactive model's bound on one database call, the wait for a connection and its statements together: past
 * {@code lab.datasource.reactive.deadline} the answer is 503 {@code database_unavailable}, as the blocking models' is
 * past their pool's acquisition timeout plus Connector/J's socket timeout (3 s + 5 s). The reactive client has no
 * timer of its own for either: its pool's acquisition timer is off (it leaks a connection, see
 * {@code BoundedReactivePoolCreator}) and it has no statement or socket timeout. Without this bound a table lock held
 * by another client held every reactive lookup for as long as the lock.
 * <p>
 * The timer is a Vert.x timer on the caller's context, so that the call it cancels (and the Hibernate Reactive session
 * it closes) is cancelled on the thread that opened it. A statement already sent stays on its connection until the
 * server answers it, and the next statement on that connection waits behind it, bounded the same way.
 */
@ApplicationScoped
public class DatabaseDeadline {

    private final Vertx vertx;
    private final Duration deadline;

    DatabaseDeadline(Vertx vertx, @ConfigProperty(name = "lab.datasource.reactive.deadline", defaultValue = "8s")
            Duration deadline) {
        this.vertx = vertx;
        this.deadline = deadline;
    }

    /** The call, or a 503 {@code database_unavailable} once the deadline passes with no answer (the call cancelled). */
    public <T> Uni<T> bound(Uni<T> call) {
        return Uni.createFrom().emitter(emitter -> {
            Cancellable running = call.subscribe().with(emitter::complete, emitter::fail);
            long timer = vertx.setTimer(Math.max(1, deadline.toMillis()), fired -> {
                running.cancel();
                emitter.fail(exceeded(deadline));
            });
            emitter.onTermination(() -> {
                vertx.cancelTimer(timer);
                running.cancel();
            });
        });
    }

    static ServiceException exceeded(Duration deadline) {
        return new ServiceException(ErrorCode.DATABASE_UNAVAILABLE,
                "The database did not answer within " + deadline.toMillis() + " ms, try again later");
    }
}
