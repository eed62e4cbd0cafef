package io.concurrencylab.aggregation;

import io.concurrencylab.error.DownstreamFailures;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** Non-blocking REST client of the downstream service, for the reactive model. Same configuration key. */
@RegisterRestClient(configKey = "downstream")
@Path("/downstream")
@DownstreamCall
public interface ReactiveDownstreamClient {

    @GET
    @Path("/base/{id}")
    Uni<BaseInfo> base(long id);

    @GET
    @Path("/detail/{id}")
    Uni<DetailInfo> detail(long id);

    @GET
    @Path("/extra/{id}")
    Uni<ExtraInfo> extra(long id);

    @ClientExceptionMapper
    static RuntimeException errorStatus(Response response) {
        return DownstreamFailures.fromStatus(response);
    }
}
