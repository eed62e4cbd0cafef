package io.concurrencylab.overload;

import io.concurrencylab.error.ErrorBody;
import io.concurrencylab.error.ErrorCode;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.Json;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Load shedding in front of every model: a count of requests in progress per model and kind, kept on the event loop
 * before a request is handed to a virtual thread, the worker pool or a reactive pipeline. Past the limit the request
 * is answered 503 {@code service_overloaded} with {@code Retry-After} right away, instead of joining a queue that
 * only grows (the worker pool's, the JDBC pool's wait, the reactive pool's wait queue).
 */
@ApplicationScoped
public class ConcurrencyLimit {

    /** Before authentication and routing to the resources: shedding must cost less than serving. */
    private static final int PRIORITY = 1_000;
    private static final ErrorCode OVERLOADED = ErrorCode.SERVICE_OVERLOADED;
    private static final String BODY = Json.encode(
            new ErrorBody(OVERLOADED.status(), OVERLOADED.code(), OVERLOADED.message(), null));

    /** The path prefixes of the three models' resources. */
    private static final Set<String> MODELS = Set.of("virtual", "worker", "reactive");

    private final OverloadConfig limits;
    private final Map<String, AtomicInteger> inProgress = new ConcurrentHashMap<>();

    ConcurrencyLimit(OverloadConfig limits) {
        this.limits = limits;
    }

    void register(@Observes Filters filters) {
        filters.register(this::limit, PRIORITY);
    }

    private void limit(RoutingContext request) {
        String key = counterKey(request.normalizedPath());
        if (key == null) {
            request.next();
            return;
        }
        int limit = key.endsWith("aggregate") ? limits.maxConcurrentAggregations() : limits.maxConcurrentLookups();
        AtomicInteger count = inProgress.computeIfAbsent(key, k -> new AtomicInteger());
        if (count.incrementAndGet() > limit) {
            count.decrementAndGet();
            request.response().setStatusCode(OVERLOADED.status())
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .putHeader(HttpHeaders.RETRY_AFTER, ErrorBody.RETRY_AFTER_SECONDS)
                    .end(BODY);
            return;
        }
        request.addEndHandler(ended -> count.decrementAndGet());
        request.next();
    }

    /**
     * One counter per model and kind of work (lookup, report, aggregation), or null for anything else (health, metrics,
     * the downstream, unknown paths). Only known names make a key, so that no path a client invents adds a counter.
     */
    static String counterKey(String path) {
        String[] segments = path.split("/");
        if (segments.length < 4 || !MODELS.contains(segments[1]) || !"users".equals(segments[2])) {
            return null;
        }
        String kind = path.endsWith("/users/me") ? "me"
                : path.endsWith("/users/me/report") ? "report"
                : path.contains("/aggregate") ? "aggregate" : null;
        return kind == null ? null : segments[1] + "/" + kind;
    }
}
