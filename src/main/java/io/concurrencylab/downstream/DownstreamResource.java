package io.concurrencylab.downstream;

import io.concurrencylab.aggregation.BaseInfo;
import io.concurrencylab.aggregation.DetailInfo;
import io.concurrencylab.aggregation.ExtraInfo;
import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import io.concurrencylab.workload.Timers;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/**
 * The slow service that the aggregation endpoints call over HTTP. Each answer is deterministic in the id
 * and comes after a Vert.x timer ({@link Timers}): waiting holds no thread, so this service adds latency, not
 * contention, whether it runs inside the app (the default) or as a separate process (the benchmark).
 */
@Path("/downstream")
public class DownstreamResource {

    private static final String[] LEVELS = { "bronze", "silver", "gold", "platinum" };

    private final Timers timers;
    private final DownstreamConfig.Delay delays;
    private final long users;

    DownstreamResource(Timers timers, DownstreamConfig config) {
        this.timers = timers;
        this.delays = config.delay();
        this.users = config.users();
    }

    @GET
    @Path("/base/{id}")
    public Uni<BaseInfo> base(long id) {
        return timers.after(delays.base(), () -> new BaseInfo(known(id), "User " + id));
    }

    @GET
    @Path("/detail/{id}")
    public Uni<DetailInfo> detail(long id) {
        return timers.after(delays.detail(),
                () -> new DetailInfo(known(id), 18 + (int) (id % 60), id % 2 == 0 ? "F" : "M"));
    }

    @GET
    @Path("/extra/{id}")
    public Uni<ExtraInfo> extra(long id) {
        return timers.after(delays.extra(), () -> new ExtraInfo(known(id), "+1-555-%07d".formatted(id % 10_000_000),
                LEVELS[(int) (id % LEVELS.length)]));
    }

    private long known(long id) {
        if (id <= 0 || id > users) {
            throw new ServiceException(ErrorCode.USER_NOT_FOUND, "No user " + id);
        }
        return id;
    }
}
