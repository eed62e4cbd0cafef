package io.concurrencylab.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;
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
 * Blocking REST client of one backend instance, for the virtual and worker models; one per instance
 * ({@link BackendInstances}). The path is the gateway's without its prefix. The two drill parameters are passed on.
 */
@Path("/api")
public interface BlockingBackendClient {

    @GET
    @Path("/{backend}")
    ObjectNode get(@PathParam("backend") String backend, @HeaderParam(Gateway.FORWARDED_PREFIX) String prefix,
            @QueryParam("status") String status, @QueryParam("delay_ms") String delayMs);

    @POST
    @Path("/{backend}")
    @Consumes(MediaType.APPLICATION_JSON)
    ObjectNode post(@PathParam("backend") String backend, @HeaderParam(Gateway.FORWARDED_PREFIX) String prefix,
            @QueryParam("status") String status, @QueryParam("delay_ms") String delayMs, byte[] body);

    @ClientExceptionMapper
    static RuntimeException errorStatus(Response response) {
        return Gateway.backendAnswered(response);
    }
}
