package io.concurrencylab.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.concurrencylab.Model;
import io.concurrencylab.error.DownstreamFailures;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Function;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The gateway in blocking style, for the virtual and the worker model: the same code, so that only the thread that
 * waits for the backend differs.
 */
@ApplicationScoped
public class BlockingGateway {

    private final BackendInstances instances;
    private final GatewayAnswers answers;

    BlockingGateway(BackendInstances instances, GatewayAnswers answers) {
        this.instances = instances;
        this.answers = answers;
    }

    /** Calls the next instance and answers for it; failures become the error contract's 502 and 504. */
    public RestResponse<ObjectNode> forward(Model model, Function<BlockingBackendClient, ObjectNode> call) {
        long started = System.nanoTime();
        BackendInstances.Instance instance = instances.next();
        ObjectNode answer;
        try {
            answer = call.apply(instance.blocking());
        } catch (RuntimeException e) {
            throw DownstreamFailures.translate(e);
        }
        return answers.answer(answer, model, instance.name(), started);
    }
}
