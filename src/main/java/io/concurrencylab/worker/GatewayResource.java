package io.concurrencylab.worker;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.concurrencylab.Model;
import io.concurrencylab.gateway.BlockingGateway;
import io.concurrencylab.gateway.Gateway;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import org.jboss.resteasy.reactive.RestResponse;

/** The gateway route on the worker pool: each request holds a pool thread while it waits for its backend call. */
@Path("/worker/gateway")
@Blocking
public class GatewayResource {

    private static final Model MODEL = Model.WORKER;

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
