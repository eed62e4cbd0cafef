package io.concurrencylab.aggregation;

import io.concurrencylab.error.DownstreamFailures;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** Blocking REST client of the downstream service, for the virtual and worker models. */
@RegisterRestClient(configKey = "downstream")
@Path("/downstream")
@DownstreamCall
public interface BlockingDownstreamClient {

    @GET
    @Path("/base/{id}")
    BaseInfo base(long id);

    @GET
    @Path("/detail/{id}")
    DetailInfo detail(long id);

    @GET
    @Path("/extra/{id}")
    ExtraInfo extra(long id);

    @ClientExceptionMapper
    static RuntimeException errorStatus(Response response) {
        return DownstreamFailures.fromStatus(response);
    }
}
