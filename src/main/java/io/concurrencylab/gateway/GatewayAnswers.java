package io.concurrencylab.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.concurrencylab.Model;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.resteasy.reactive.RestResponse;

/** Turns a backend's parsed answer into the gateway's: the same JSON plus {@code _gateway}, and the instance header. */
@ApplicationScoped
public class GatewayAnswers {

    public RestResponse<ObjectNode> answer(ObjectNode backendAnswer, Model model, String instance, long startedNanos) {
        ObjectNode gateway = backendAnswer.putObject("_gateway");
        gateway.put("model", model.path());
        gateway.put("instance", instance);
        gateway.put("took_ms", (System.nanoTime() - startedNanos) / 1_000_000);
        return RestResponse.ResponseBuilder.ok(backendAnswer).header(Gateway.INSTANCE_HEADER, instance).build();
    }
}
