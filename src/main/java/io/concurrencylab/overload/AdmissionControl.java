package io.concurrencylab.overload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.concurrencylab.Model;
import io.concurrencylab.error.ErrorBody;
import io.concurrencylab.error.ErrorCode;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The app's first gate, in front of everything else on the router, authentication included: past a limit on a model's
 * lookups (or its reports) in flight, learnt from how many the app answers ({@link InFlightLimit}), the next one is
 * answered 503 {@code service_overloaded} at once, for the price of its HTTP parsing. So is every one that reaches an
 * event loop running behind ({@link LoopLag}): it has waited in the sockets, where no limit sees it.
 * <p>
 * {@link ConcurrencyLimit} counts per model after authentication, a fixed bound. Within 0.5 CPU, the tokens it checked
 * before shedding, and the sockets of clients that had given up, took the CPU and heap the admitted requests needed:
 * a burst went unanswered instead of shed. This gate acts earlier and adapts to whatever CPU the pod has.
 * <p>
 * It gates only the short kinds, each with its own limit: aggregations (and the downstream they call) wait on timers,
 * not on the CPU, and keep their fixed limit. One limit that quarkus-load-shedding learnt from the latencies of both
 * kinds shed aggregations at a tenth of their capacity, and lookups below theirs. A shed request's connection stays
 * open: clients reconnecting after each 503 left 10 % of a burst unanswered, not 3 %.
 */
@Singleton
public class AdmissionControl {

    /** Before any other route or filter, proactive authentication included. */
    private static final int FIRST = -1_000_000_000;
    private static final ErrorCode OVERLOADED = ErrorCode.SERVICE_OVERLOADED;
    /** The paths under a model's of the kinds this gate sheds: @ConcurrencyLimited(LOOKUP) and (REPORT). */
    static final List<String> GATED = List.of("/users/me", "/users/me/report");

    private final OverloadConfig limits;
    private final Buffer overloaded;
    /** Each event loop's lag, its timer started by the first gated request the loop handles. */
    private final ThreadLocal<LoopLag> lags = new ThreadLocal<>();
    /** Set as the app stops: in dev mode Vert.x outlives a reload, and so would the timers. */
    private volatile boolean stopped;

    AdmissionControl(OverloadConfig limits, ObjectMapper json) throws JsonProcessingException {
        this.limits = limits;
        this.overloaded = Buffer.buffer(json.writeValueAsBytes(
                new ErrorBody(OVERLOADED.status(), OVERLOADED.code(), OVERLOADED.message(), null)));
    }

    void register(@Observes @Priority(FIRST) Router router) {
        if (!limits.admissionControl()) {
            return;
        }
        long now = System.nanoTime();
        Map<String, InFlightLimit> byPath = new HashMap<>();
        for (Model model : Model.values()) {
            for (String path : GATED) {
                byPath.put("/" + model.path() + path,
                        new InFlightLimit(limits.queueTime().toNanos(), limits.minInFlight(), now));
            }
        }
        router.route().order(FIRST).handler(request -> {
            InFlightLimit limit = byPath.get(request.normalizedPath());
            if (limit == null) {
                request.next();
            } else {
                admit(limit, request);
            }
        });
    }

    void admit(InFlightLimit limit, RoutingContext request) {
        long now = System.nanoTime();
        if (lag(request.vertx(), now).behind(now) || !limit.admit(now)) {
            request.response().setStatusCode(OVERLOADED.status())
                    .putHeader(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                    .putHeader(HttpHeaderNames.RETRY_AFTER, ErrorBody.RETRY_AFTER_SECONDS)
                    .end(overloaded);
            return;
        }
        request.addEndHandler(ended -> limit.ended(System.nanoTime()));
        request.next();
    }

    /** This event loop's lag, measured from now on if it was not yet. */
    private LoopLag lag(Vertx vertx, long now) {
        LoopLag lag = lags.get();
        if (lag == null) {
            lag = new LoopLag(limits.maxLoopLag().toNanos(), now);
            lags.set(lag);
            tick(vertx, lag);
        }
        return lag;
    }

    /** A one-shot timer on the current event loop, each one set when the last ran, so that a late one is not caught up. */
    private void tick(Vertx vertx, LoopLag lag) {
        vertx.setTimer(LoopLag.TICK_NANOS / 1_000_000, id -> {
            lag.ticked(System.nanoTime());
            if (!stopped) {
                tick(vertx, lag);
            }
        });
    }

    @PreDestroy
    void stop() {
        stopped = true;
    }
}
