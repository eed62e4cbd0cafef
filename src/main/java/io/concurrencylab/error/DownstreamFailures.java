package io.concurrencylab.error;

import com.fasterxml.jackson.core.JacksonException;
import io.vertx.core.VertxException;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/**
 * One downstream failure type for every model: a {@link ServiceException} whose code says what went wrong. The gateway
 * types its backends' failures the same way.
 */
public final class DownstreamFailures {

    private DownstreamFailures() {
    }

    /** The downstream answered with an error status (the clients' {@code @ClientExceptionMapper}). */
    public static ServiceException fromStatus(Response response) {
        int status = response.getStatus();
        if (status == 404) {
            return new ServiceException(ErrorCode.USER_NOT_FOUND, "The downstream service knows no such user");
        }
        return new ServiceException(ErrorCode.DOWNSTREAM_ERROR, "The downstream service answered " + status);
    }

    /**
     * The call failed without an answer: too slow (read timeout), unreachable (refused, reset, closed), or the answer
     * could not be read. Anything else is not the downstream's doing and stays as it is.
     */
    public static RuntimeException translate(Throwable failure) {
        if (failure instanceof ServiceException classified) {
            return classified;
        }
        if (has(failure, TimeoutException.class)) {
            return new ServiceException(ErrorCode.DOWNSTREAM_TIMEOUT, ErrorCode.DOWNSTREAM_TIMEOUT.message(), failure);
        }
        if (has(failure, JacksonException.class)) {
            return new ServiceException(ErrorCode.DOWNSTREAM_ERROR, "The downstream service's answer is not readable",
                    failure);
        }
        if (has(failure, IOException.class) || has(failure, VertxException.class)) {
            return new ServiceException(ErrorCode.DOWNSTREAM_UNAVAILABLE, ErrorCode.DOWNSTREAM_UNAVAILABLE.message(),
                    failure);
        }
        return failure instanceof RuntimeException unchecked ? unchecked : new IllegalStateException(failure);
    }

    private static boolean has(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
