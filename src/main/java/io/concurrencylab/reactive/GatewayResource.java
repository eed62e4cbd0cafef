package io.concurrencylab.reactive;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.concurrencylab.Model;
import io.concurrencylab.gateway.Gateway;
import io.concurrencylab.gateway.ReactiveGateway;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import org.jboss.resteasy.reactive.RestResponse;

/** The gateway route on the event loop: a pending backend call holds no thread. */
@Path("/reactive/gateway")
public class GatewayResource {

    private static final Model MODEL = Model.REACTIVE;

    private final ReactiveGateway gateway;

    GatewayResource(ReactiveGateway gateway) {
        this.gateway = gateway;
    }

    @GET
    @Path("/api/{backend:data|process|heavy}")
    public Uni<RestResponse<ObjectNode>> get(String backend, @QueryParam("status") String status,
            @QueryParam("delay_ms") String delayMs) {
        return gateway.forward(MODEL, client -> client.get(backend, Gateway.prefix(MODEL), status, delayMs));
    }

    @POST
    @Path("/api/{backend:data|process|heavy}")
    public Uni<RestResponse<ObjectNode>> post(String backend, @QueryParam("status") String status,
            @QueryParam("delay_ms") String delayMs, byte[] body) {
        return gateway.forward(MODEL, client -> client.post(backend, Gateway.prefix(MODEL), status, delayMs, body));
    }
}
