package io.concurrencylab.downstream;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** Non-blocking REST client of the downstream service, for the reactive model. Same configuration key. */
@RegisterRestClient(configKey = "downstream")
@Path("/downstream")
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
}
