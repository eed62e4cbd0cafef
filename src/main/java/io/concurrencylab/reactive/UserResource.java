package io.concurrencylab.reactive;

import io.concurrencylab.aggregation.ReactiveAggregation;
import io.concurrencylab.aggregation.UserAggregate;
import io.concurrencylab.aggregation.UserIds;
import io.concurrencylab.cache.ReactiveAggregateCache;
import io.concurrencylab.overload.ConcurrencyLimited;
import io.concurrencylab.overload.WorkKind;
import io.concurrencylab.report.ReactiveReportRepository;
import io.concurrencylab.report.UserReport;
import io.concurrencylab.security.TokenClaims;
import io.concurrencylab.user.ReactiveUserRepository;
import io.concurrencylab.user.UserView;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** Non-blocking code on the Vert.x event loop: no thread waits, the parallel branches are two pending Unis. */
@Path("/reactive/users")
public class UserResource {

    private final ReactiveUserRepository users;
    private final ReactiveReportRepository reports;
    private final ReactiveAggregation aggregation;
    private final ReactiveAggregateCache cache;
    private final JsonWebToken token;

    UserResource(ReactiveUserRepository users, ReactiveReportRepository reports, ReactiveAggregation aggregation,
            ReactiveAggregateCache cache, JsonWebToken token) {
        this.users = users;
        this.reports = reports;
        this.aggregation = aggregation;
        this.cache = cache;
        this.token = token;
    }

    @GET
    @Path("/me")
    @Authenticated
    @ConcurrencyLimited(WorkKind.LOOKUP)
    public Uni<UserView> me() {
        return users.findViewByEmail(TokenClaims.email(token));
    }

    @POST
    @Path("/me/report")
    @Authenticated
    @ConcurrencyLimited(WorkKind.REPORT)
    public Uni<UserReport> report() {
        return reports.report(TokenClaims.email(token));
    }

    @GET
    @Path("/{id}/aggregate")
    @ConcurrencyLimited(WorkKind.AGGREGATION)
    public Uni<UserAggregate> aggregate(String id) {
        return aggregation.aggregate(UserIds.parse(id));
    }

    @GET
    @Path("/{id}/aggregate/cached")
    @ConcurrencyLimited(WorkKind.AGGREGATION)
    public Uni<UserAggregate> aggregateCached(String id) {
        return cache.get(UserIds.parse(id), aggregation::aggregate);
    }

    @GET
    @Path("/{id}/aggregate/sequential")
    @ConcurrencyLimited(WorkKind.AGGREGATION)
    public Uni<UserAggregate> aggregateSequentially(String id) {
        return aggregation.aggregateSequentially(UserIds.parse(id));
    }
}
