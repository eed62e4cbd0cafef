package io.concurrencylab.reactive;

import io.concurrencylab.downstream.ReactiveDownstreamClient;
import io.concurrencylab.user.TokenClaims;
import io.concurrencylab.user.UserAggregate;
import io.concurrencylab.user.UserView;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** Non-blocking code on the Vert.x event loop: no thread waits, the parallel branches are two pending Unis. */
@Path("/reactive/users")
public class UserResource {

    private final ReactiveUserRepository users;
    private final ReactiveDownstreamClient downstream;
    private final JsonWebToken token;

    UserResource(ReactiveUserRepository users, @RestClient ReactiveDownstreamClient downstream, JsonWebToken token) {
        this.users = users;
        this.downstream = downstream;
        this.token = token;
    }

    @GET
    @Path("/me")
    @Authenticated
    public Uni<UserView> me() {
        return users.findViewByEmail(TokenClaims.email(token));
    }

    @GET
    @Path("/{id}/aggregate")
    public Uni<UserAggregate> aggregate(long id) {
        return downstream.base(id).chain(base -> Uni.combine().all()
                .unis(downstream.detail(base.id()), downstream.extra(base.id()))
                .with((detail, extra) -> UserAggregate.of(base, detail, extra)))
                .onFailure(UserResource::isTransportFailure).transform(ProcessingException::new);
    }

    @GET
    @Path("/{id}/aggregate/sequential")
    public Uni<UserAggregate> aggregateSequentially(long id) {
        return downstream.base(id).chain(base -> downstream.detail(base.id())
                .chain(detail -> downstream.extra(base.id())
                        .map(extra -> UserAggregate.of(base, detail, extra))))
                .onFailure(UserResource::isTransportFailure).transform(ProcessingException::new);
    }

    /**
     * The blocking REST client wraps a refused connection or a read timeout in a ProcessingException; the Uni
     * client hands over the bare Vert.x failure. Wrapping it the same way gives one error contract for all models.
     */
    private static boolean isTransportFailure(Throwable failure) {
        return !(failure instanceof WebApplicationException) && !(failure instanceof ProcessingException);
    }
}
