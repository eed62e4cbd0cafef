package io.concurrencylab.reactive;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.concurrencylab.aggregation.DownstreamFailures;
import io.concurrencylab.gateway.BackendInstances;
import io.concurrencylab.gateway.Gateway;
import io.concurrencylab.gateway.GatewayAnswers;
import io.concurrencylab.gateway.ReactiveBackendClient;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.util.function.Function;
import org.jboss.resteasy.reactive.RestResponse;

/** The gateway route on the event loop: a pending backend call holds no thread. */
@Path("/reactive/gateway")
public class GatewayResource {

    private static final String MODEL = "reactive";

    private final BackendInstances instances;
    private final GatewayAnswers answers;

    GatewayResource(BackendInstances instances, GatewayAnswers answers) {
        this.instances = instances;
        this.answers = answers;
    }

    @GET
    @Path("/api/{backend:data|process|heavy}")
    public Uni<RestResponse<ObjectNode>> get(String backend, @QueryParam("status") String status,
            @QueryParam("delay_ms") String delayMs) {
        return forward(client -> client.get(backend, Gateway.prefix(MODEL), status, delayMs));
    }

    @POST
    @Path("/api/{backend:data|process|heavy}")
    public Uni<RestResponse<ObjectNode>> post(String backend, @QueryParam("status") String status,
            @QueryParam("delay_ms") String delayMs, byte[] body) {
        return forward(client -> client.post(backend, Gateway.prefix(MODEL), status, delayMs, body));
    }

    private Uni<RestResponse<ObjectNode>> forward(Function<ReactiveBackendClient, Uni<ObjectNode>> call) {
        long started = System.nanoTime();
        BackendInstances.Instance instance = instances.next();
        return call.apply(instance.reactive()).onFailure().transform(DownstreamFailures::translate)
                .map(answer -> answers.answer(answer, MODEL, instance.name(), started));
    }
}
