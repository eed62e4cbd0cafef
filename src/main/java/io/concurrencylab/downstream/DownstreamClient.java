package io.concurrencylab.downstream;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** Blocking REST client of the downstream service, for the virtual and worker models. */
@RegisterRestClient(configKey = "downstream")
@Path("/downstream")
public interface DownstreamClient {

    @GET
    @Path("/base/{id}")
    BaseInfo base(long id);

    @GET
    @Path("/detail/{id}")
    DetailInfo detail(long id);

    @GET
    @Path("/extra/{id}")
    ExtraInfo extra(long id);
}
