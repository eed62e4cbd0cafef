package io.concurrencylab.virtual;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.concurrencylab.Model;
import io.concurrencylab.gateway.BlockingGateway;
import io.concurrencylab.gateway.Gateway;
import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import org.jboss.resteasy.reactive.RestResponse;

/** The gateway route on virtual threads: each request's virtual thread waits for its backend call. */
@Path("/virtual/gateway")
@RunOnVirtualThread
public class GatewayResource {

    private static final Model MODEL = Model.VIRTUAL;

    private final BlockingGateway gateway;

    GatewayResource(BlockingGateway gateway) {
        this.gateway = gateway;
    }

    @GET
    @Path("/api/{backend:data|process|heavy}")
    public RestResponse<ObjectNode> get(String backend, @QueryParam("status") String status,
            @QueryParam("delay_ms") String delayMs) {
        return gateway.forward(MODEL, client -> client.get(backend, Gateway.prefix(MODEL), status, delayMs));
    }

    @POST
    @Path("/api/{backend:data|process|heavy}")
    public RestResponse<ObjectNode> post(String backend, @QueryParam("status") String status,
            @QueryParam("delay_ms") String delayMs, byte[] body) {
        return gateway.forward(MODEL, client -> client.post(backend, Gateway.prefix(MODEL), status, delayMs, body));
    }
}
