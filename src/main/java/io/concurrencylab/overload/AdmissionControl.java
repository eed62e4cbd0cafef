package io.concurrencylab.overload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.concurrencylab.error.ErrorBody;
import io.concurrencylab.error.ErrorCode;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.quarkus.load.shedding.runtime.OverloadDetector;
import io.quarkus.load.shedding.runtime.PriorityLoadShedding;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * The app's first gate, in front of everything else on the router, authentication included: while Quarkus' load
 * shedding (quarkus-load-shedding: a TCP Vegas limit on the requests in progress, learnt from their latency) finds the
 * app overloaded, a request is answered 503 {@code service_overloaded} at once, for the price of its HTTP parsing.
 * <p>
 * {@link ConcurrencyLimit} counts per model after authentication, a fixed bound. Within 0.5 CPU, the tokens it checked
 * before shedding, and the sockets of clients that had given up, took the CPU and heap the admitted requests needed:
 * a burst went unanswered instead of shed. This gate acts earlier and adapts to whatever CPU the pod has.
 * <p>
 * It is off unless {@code lab.overload.admission-control=true}: one limit for requests of 5 ms and of 600 ms learns too
 * low a limit for the long ones ({@link OverloadConfig#admissionControl()}). It is the extension's own decision (its
 * detector and priorities: health probes are shed last), with the app's JSON answer in place of an empty 503; hence
 * the extension's handler is off ({@code quarkus.load-shedding.enabled=false}). Unlike that handler, it keeps the
 * connection open: within 0.5 CPU, clients reconnecting after each 503 left 10 % of a burst unanswered, not 3 %.
 */
@Singleton
public class AdmissionControl {

    /** The extension's own place on the router: before any other route or filter. */
    private static final int FIRST = -1_000_000_000;
    private static final ErrorCode OVERLOADED = ErrorCode.SERVICE_OVERLOADED;

    private final OverloadConfig limits;
    private final OverloadDetector detector;
    private final PriorityLoadShedding priorities;
    private final Buffer overloaded;

    AdmissionControl(OverloadConfig limits, OverloadDetector detector, PriorityLoadShedding priorities,
            ObjectMapper json) throws JsonProcessingException {
        this.limits = limits;
        this.detector = detector;
        this.priorities = priorities;
        this.overloaded = Buffer.buffer(json.writeValueAsBytes(
                new ErrorBody(OVERLOADED.status(), OVERLOADED.code(), OVERLOADED.message(), null)));
    }

    void register(@Observes @Priority(FIRST) Router router) {
        if (limits.admissionControl()) {
            router.route().order(FIRST).handler(this::admit);
        }
    }

    void admit(RoutingContext request) {
        if (detector.isOverloaded() && priorities.shedLoad(request)) {
            request.response().setStatusCode(OVERLOADED.status())
                    .putHeader(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                    .putHeader(HttpHeaderNames.RETRY_AFTER, ErrorBody.RETRY_AFTER_SECONDS)
                    .end(overloaded);
            return;
        }
        detector.requestBegin();
        long start = System.nanoTime();
        request.addEndHandler(ended -> detector.requestEnd((System.nanoTime() - start) / 1_000));
        request.next();
    }
}
