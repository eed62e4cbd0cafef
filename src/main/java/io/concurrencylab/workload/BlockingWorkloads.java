package io.concurrencylab.workload;

import io.concurrencylab.aggregation.BlockingDownstreamClient;
import io.concurrencylab.error.ErrorCode;
import io.concurrencylab.error.ServiceException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ExecutionException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Hold and mixed in blocking style, for the virtual and the worker model: the same code, so that only the thread that
 * runs it differs (a virtual thread that unmounts while it waits, or a worker-pool thread that waits).
 */
@ApplicationScoped
public class BlockingWorkloads {

    private final BlockingDownstreamClient downstream;
    private final Sha256Rounds sha256;
    private final CpuOffload offload;

    BlockingWorkloads(@RestClient BlockingDownstreamClient downstream, Sha256Rounds sha256, CpuOffload offload) {
        this.downstream = downstream;
        this.sha256 = sha256;
        this.offload = offload;
    }

    /** Sleeps: the connection is held, and so is this thread. */
    public HoldAnswer hold(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw interrupted();
        }
        return new HoldAnswer(ms);
    }

    /** The downstream call, then the rounds on this thread. */
    public MixedAnswer mixed(int rounds) {
        String answer = downstream.base(MixedAnswer.DOWNSTREAM_USER).name();
        return new MixedAnswer(answer, rounds, sha256.digest(rounds), false);
    }

    /** The downstream call, then the rounds on the CPU pool while this thread waits for them. */
    public MixedAnswer mixedOffloaded(int rounds) {
        String answer = downstream.base(MixedAnswer.DOWNSTREAM_USER).name();
        try {
            String digest = offload.supply(() -> sha256.digest(rounds)).toCompletableFuture().get();
            return new MixedAnswer(answer, rounds, digest, true);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            throw interrupted();
        }
    }

    /** Only a stopping application interrupts a request's thread. */
    private static ServiceException interrupted() {
        Thread.currentThread().interrupt();
        return new ServiceException(ErrorCode.SERVICE_OVERLOADED, "Interrupted: the service is stopping");
    }
}
