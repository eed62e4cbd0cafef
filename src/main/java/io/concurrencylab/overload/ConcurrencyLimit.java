package io.concurrencylab.overload;

import io.concurrencylab.Model;
import io.concurrencylab.error.ErrorBody;
import io.concurrencylab.error.ErrorCode;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Load shedding in front of every model: a count of requests in progress per model and kind of work. Past the limit a
 * request is answered 503 {@code service_overloaded} with {@code Retry-After} right away, instead of joining a queue
 * that only grows (the worker pool's, the JDBC pool's wait, the reactive pool's wait queue).
 * <p>
 * What a request counts as comes from the route it was matched to, not from its URL: the model from the resource's
 * package ({@link Model#ofResource}), the kind from the method's {@link ConcurrencyLimited}. Hence a Quarkus REST
 * request filter, which runs once the route is matched. {@code nonBlocking} keeps it on the event loop, before the
 * request is handed to a virtual thread or the worker pool, so that a shed request never waits in the queue it is shed
 * from; Quarkus REST can only place it there if it comes before every other request filter, hence its priority. The
 * price: the route's matching and, for a request with a token, its (proactive) authentication come before shedding.
 */
@ApplicationScoped
public class ConcurrencyLimit {

    /** Before every other request filter: only then does a non-blocking filter run before the dispatch. */
    private static final int FIRST = 0;
    private static final ErrorCode OVERLOADED = ErrorCode.SERVICE_OVERLOADED;

    private final OverloadConfig limits;
    /** Every counter there can be, made once: no request adds one. */
    private final Map<Model, Map<WorkKind, AtomicInteger>> inProgress = new EnumMap<>(Model.class);
    /** Each route's model and kind, read once from its class and annotation rather than on every request. */
    private final Map<Method, Optional<Counted>> routes = new ConcurrentHashMap<>();

    ConcurrencyLimit(OverloadConfig limits) {
        this.limits = limits;
        for (Model model : Model.values()) {
            Map<WorkKind, AtomicInteger> counts = new EnumMap<>(WorkKind.class);
            for (WorkKind kind : WorkKind.values()) {
                counts.put(kind, new AtomicInteger());
            }
            inProgress.put(model, counts);
        }
    }

    /** The 503 of a request over its limit, or null to let it through. */
    @ServerRequestFilter(nonBlocking = true, priority = FIRST)
    public Response limit(ResourceInfo route, RoutingContext request) {
        Optional<Counted> counted = routes.computeIfAbsent(route.getResourceMethod(),
                method -> Counted.of(route.getResourceClass(), method));
        return counted.isEmpty() ? null : enter(counted.get().model(), counted.get().kind(), request);
    }

    /** What a route's requests count as: its model and kind of work. */
    record Counted(Model model, WorkKind kind) {

        static Optional<Counted> of(Class<?> resource, Method method) {
            ConcurrencyLimited limited = method.getAnnotation(ConcurrencyLimited.class);
            return limited == null ? Optional.empty()
                    : Model.ofResource(resource).map(model -> new Counted(model, limited.value()));
        }
    }

    /** Counts the request in until its response ends, or refuses it when its model and kind are at their limit. */
    Response enter(Model model, WorkKind kind, RoutingContext request) {
        AtomicInteger count = inProgress.get(model).get(kind);
        if (count.incrementAndGet() > limit(kind)) {
            count.decrementAndGet();
            return ErrorBody.response(OVERLOADED, OVERLOADED.message());
        }
        request.addEndHandler(ended -> count.decrementAndGet());
        return null;
    }

    private int limit(WorkKind kind) {
        return switch (kind) {
            case LOOKUP, REPORT -> limits.maxConcurrentLookups();
            case AGGREGATION -> limits.maxConcurrentAggregations();
        };
    }
}
