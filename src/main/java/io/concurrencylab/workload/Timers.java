package io.concurrencylab.workload;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Waiting without a thread: an answer computed after a Vert.x timer on the caller's event loop. The simulated services
 * wait this way so that they add latency, not contention, and the reactive model holds a connection this way.
 */
@ApplicationScoped
public class Timers {

    private final Vertx vertx;

    Timers(Vertx vertx) {
        this.vertx = vertx;
    }

    /** The answer after the delay; cancelling the Uni cancels the timer. A failing answer fails the Uni. */
    public <T> Uni<T> after(Duration delay, Supplier<T> answer) {
        return Uni.createFrom().emitter(emitter -> {
            // Vert.x timers take at least 1 ms.
            long timer = vertx.setTimer(Math.max(1, delay.toMillis()), fired -> {
                try {
                    emitter.complete(answer.get());
                } catch (RuntimeException e) {
                    emitter.fail(e);
                }
            });
            emitter.onTermination(() -> vertx.cancelTimer(timer));
        });
    }
}
