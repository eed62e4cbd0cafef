package io.concurrencylab.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Non-blocking REST client of one backend instance, for the reactive model: the same calls as
 * {@link BlockingBackendClient}.
 */
@Path("/api")
public interface ReactiveBackendClient {

    @GET
    @Path("/{backend}")
    Uni<ObjectNode> get(@PathParam("backend") String backend, @HeaderParam(Gateway.FORWARDED_PREFIX) String prefix,
            @QueryParam("status") String status, @QueryParam("delay_ms") String delayMs);

    @POST
    @Path("/{backend}")
    @Consumes(MediaType.APPLICATION_JSON)
    Uni<ObjectNode> post(@PathParam("backend") String backend, @HeaderParam(Gateway.FORWARDED_PREFIX) String prefix,
            @QueryParam("status") String status, @QueryParam("delay_ms") String delayMs, byte[] body);

    @ClientExceptionMapper
    static RuntimeException errorStatus(Response response) {
        return Gateway.backendAnswered(response);
    }
}
