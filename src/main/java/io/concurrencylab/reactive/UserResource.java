package io.concurrencylab.reactive;

import io.concurrencylab.aggregation.AggregationConfig;
import io.concurrencylab.aggregation.ReactiveDownstreamClient;
import io.concurrencylab.aggregation.UserAggregate;
import io.concurrencylab.aggregation.UserIds;
import io.concurrencylab.cache.ReactiveAggregateCache;
import io.concurrencylab.report.UserReport;
import io.concurrencylab.security.TokenClaims;
import io.concurrencylab.user.UserView;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.time.Duration;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** Non-blocking code on the Vert.x event loop: no thread waits, the parallel branches are two pending Unis. */
@Path("/reactive/users")
public class UserResource {

    private final ReactiveUserRepository users;
    private final ReactiveReportRepository reports;
    private final ReactiveDownstreamClient downstream;
    private final ReactiveAggregateCache cache;
    private final Duration deadline;
    private final JsonWebToken token;

    UserResource(ReactiveUserRepository users, ReactiveReportRepository reports, @RestClient ReactiveDownstreamClient downstream,
            ReactiveAggregateCache cache, AggregationConfig aggregation, JsonWebToken token) {
        this.users = users;
        this.reports = reports;
        this.downstream = downstream;
        this.cache = cache;
        this.deadline = aggregation.deadline();
        this.token = token;
    }

    @GET
    @Path("/me")
    @Authenticated
    public Uni<UserView> me() {
        return users.findViewByEmail(TokenClaims.email(token));
    }

    @POST
    @Path("/me/report")
    @Authenticated
    public Uni<UserReport> report() {
        return reports.report(TokenClaims.email(token));
    }

    @GET
    @Path("/{id}/aggregate")
    public Uni<UserAggregate> aggregate(String id) {
        return aggregate(UserIds.parse(id));
    }

    @GET
    @Path("/{id}/aggregate/cached")
    public Uni<UserAggregate> aggregateCached(String id) {
        return cache.get(UserIds.parse(id), this::aggregate);
    }

    private Uni<UserAggregate> aggregate(long userId) {
        return downstream.base(userId).chain(base -> Uni.combine().all()
                .unis(downstream.detail(base.id()), downstream.extra(base.id()))
                .with((detail, extra) -> UserAggregate.of(base, detail, extra)))
                // The same deadline as the blocking models; cancelling the Uni cancels the calls still pending.
                .ifNoItem().after(deadline).failWith(AggregationConfig::deadlineExceeded);
    }

    @GET
    @Path("/{id}/aggregate/sequential")
    public Uni<UserAggregate> aggregateSequentially(String id) {
        long userId = UserIds.parse(id);
        return downstream.base(userId).chain(base -> downstream.detail(base.id())
                .chain(detail -> downstream.extra(base.id())
                        .map(extra -> UserAggregate.of(base, detail, extra))));
    }
}
