package io.concurrencylab.downstream;

import io.concurrencylab.aggregation.BaseInfo;
import io.concurrencylab.aggregation.DetailInfo;
import io.concurrencylab.aggregation.ExtraInfo;
import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The slow service that the aggregation endpoints call over HTTP. Each answer is deterministic in the id
 * and comes after a Vert.x timer: waiting holds no thread, so this service adds latency, not contention,
 * whether it runs inside the app (the default) or as a separate process (the benchmark).
 */
@Path("/downstream")
public class DownstreamResource {

    private static final String[] LEVELS = { "bronze", "silver", "gold", "platinum" };

    private final Vertx vertx;
    private final DownstreamConfig.Delay delays;
    private final long users;

    DownstreamResource(Vertx vertx, DownstreamConfig config) {
        this.vertx = vertx;
        this.delays = config.delay();
        this.users = config.users();
    }

    @GET
    @Path("/base/{id}")
    public Uni<BaseInfo> base(long id) {
        return after(delays.base(), () -> new BaseInfo(known(id), "User " + id));
    }

    @GET
    @Path("/detail/{id}")
    public Uni<DetailInfo> detail(long id) {
        return after(delays.detail(), () -> new DetailInfo(known(id), 18 + (int) (id % 60), id % 2 == 0 ? "F" : "M"));
    }

    @GET
    @Path("/extra/{id}")
    public Uni<ExtraInfo> extra(long id) {
        return after(delays.extra(), () -> new ExtraInfo(known(id), "+1-555-%07d".formatted(id % 10_000_000),
                LEVELS[(int) (id % LEVELS.length)]));
    }

    private long known(long id) {
        if (id <= 0 || id > users) {
            throw new ServiceException(ErrorCode.USER_NOT_FOUND, "No user " + id);
        }
        return id;
    }

    private <T> Uni<T> after(Duration delay, Supplier<T> answer) {
        return Uni.createFrom().emitter(emitter -> {
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
