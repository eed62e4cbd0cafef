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

    private final OverloadConfig limits;
    private final Map<String, AtomicInteger> inProgress = new ConcurrentHashMap<>();

    ConcurrencyLimit(OverloadConfig limits) {
        this.limits = limits;
    }

    void register(@Observes Filters filters) {
        filters.register(this::limit, PRIORITY);
    }

    private void limit(RoutingContext request) {
        String path = request.normalizedPath();
        int limit = limitFor(path);
        if (limit <= 0) {
            request.next();
            return;
        }
        // /{model}/users/...: one counter per model and kind, so that one model's overload never sheds another's.
        String key = path.substring(0, path.indexOf('/', 1) + 1) + (path.endsWith("/me") ? "me" : "aggregate");
        AtomicInteger count = inProgress.computeIfAbsent(key, k -> new AtomicInteger());
        if (count.incrementAndGet() > limit) {
            count.decrementAndGet();
            request.response().setStatusCode(OVERLOADED.status())
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .putHeader(HttpHeaders.RETRY_AFTER, "1")
                    .end(BODY);
            return;
        }
        request.addEndHandler(ended -> count.decrementAndGet());
        request.next();
    }

    /** The models' endpoints are /{model}/users/...; anything else (health, metrics, the downstream) is not limited. */
    private int limitFor(String path) {
        int second = path.indexOf('/', 1);
        if (second < 0 || !path.startsWith("/users/", second)) {
            return 0;
        }
        return path.endsWith("/me") ? limits.maxConcurrentLookups() : limits.maxConcurrentAggregations();
    }
}
