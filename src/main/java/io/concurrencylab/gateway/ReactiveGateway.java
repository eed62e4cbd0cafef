package io.concurrencylab.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.concurrencylab.Model;
import io.concurrencylab.error.DownstreamFailures;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Function;
import org.jboss.resteasy.reactive.RestResponse;

/** The gateway in non-blocking style, for the reactive model: the twin of {@link BlockingGateway}. */
@ApplicationScoped
public class ReactiveGateway {

    private final BackendInstances instances;
    private final GatewayAnswers answers;

    ReactiveGateway(BackendInstances instances, GatewayAnswers answers) {
        this.instances = instances;
        this.answers = answers;
    }

    /** Calls the next instance and answers for it; failures become the error contract's 502 and 504. */
    public Uni<RestResponse<ObjectNode>> forward(Model model, Function<ReactiveBackendClient, Uni<ObjectNode>> call) {
        long started = System.nanoTime();
        BackendInstances.Instance instance = instances.next();
        return call.apply(instance.reactive()).onFailure().transform(DownstreamFailures::translate)
                .map(answer -> answers.answer(answer, model, instance.name(), started));
    }
}
