package io.concurrencylab.virtual;

import io.concurrencylab.aggregation.BlockingAggregation;
import io.concurrencylab.aggregation.UserAggregate;
import io.concurrencylab.aggregation.UserIds;
import io.concurrencylab.cache.BlockingAggregateCache;
import io.concurrencylab.overload.ConcurrencyLimited;
import io.concurrencylab.overload.WorkKind;
import io.concurrencylab.report.BlockingReportRepository;
import io.concurrencylab.report.UserReport;
import io.concurrencylab.security.TokenClaims;
import io.concurrencylab.user.BlockingUserRepository;
import io.concurrencylab.user.UserView;
import io.quarkus.security.Authenticated;
import io.quarkus.virtual.threads.VirtualThreads;
import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.concurrent.ExecutorService;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** Blocking code, one virtual thread per request and one per parallel branch. */
@Path("/virtual/users")
@RunOnVirtualThread
public class UserResource {

    private final BlockingUserRepository users;
    private final BlockingReportRepository reports;
    private final BlockingAggregation aggregation;
    private final BlockingAggregateCache cache;
    private final ExecutorService branches;
    private final JsonWebToken token;

    UserResource(BlockingUserRepository users, BlockingReportRepository reports, BlockingAggregation aggregation,
            BlockingAggregateCache cache, @VirtualThreads ExecutorService branches, JsonWebToken token) {
        this.users = users;
        this.reports = reports;
        this.aggregation = aggregation;
        this.cache = cache;
        this.branches = branches;
        this.token = token;
    }

    @GET
    @Path("/me")
    @Authenticated
    @ConcurrencyLimited(WorkKind.LOOKUP)
    public UserView me() {
        return users.findViewByEmail(TokenClaims.email(token));
    }

    @POST
    @Path("/me/report")
    @Authenticated
    @ConcurrencyLimited(WorkKind.REPORT)
    public UserReport report() {
        return reports.report(TokenClaims.email(token));
    }

    @GET
    @Path("/{id}/aggregate")
    @ConcurrencyLimited(WorkKind.AGGREGATION)
    public UserAggregate aggregate(String id) {
        return aggregation.aggregate(UserIds.parse(id), branches);
    }

    @GET
    @Path("/{id}/aggregate/cached")
    @ConcurrencyLimited(WorkKind.AGGREGATION)
    public UserAggregate aggregateCached(String id) {
        return cache.get(UserIds.parse(id), userId -> aggregation.aggregate(userId, branches));
    }

    @GET
    @Path("/{id}/aggregate/sequential")
    @ConcurrencyLimited(WorkKind.AGGREGATION)
    public UserAggregate aggregateSequentially(String id) {
        return aggregation.aggregateSequentially(UserIds.parse(id));
    }
}
