package io.concurrencylab.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.core.JsonParseException;
import io.vertx.core.VertxException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** A downstream call's failures, as the REST clients raise them, and the error contract's answer to each. */
class DownstreamFailuresTest {

    @Test
    void aReadTimeoutIsDownstreamTimeout() {
        assertEquals(ErrorCode.DOWNSTREAM_TIMEOUT, code(new ProcessingException(new TimeoutException("read timeout"))));
    }

    @Test
    void aRefusedOrResetConnectionIsDownstreamUnavailable() {
        assertEquals(ErrorCode.DOWNSTREAM_UNAVAILABLE, code(new ProcessingException(new ConnectException("refused"))));
        assertEquals(ErrorCode.DOWNSTREAM_UNAVAILABLE, code(new SocketException("Connection reset")));
        assertEquals(ErrorCode.DOWNSTREAM_UNAVAILABLE, code(new VertxException("Connection was closed", true)));
    }

    @Test
    void anUnreadableAnswerIsDownstreamError() {
        assertEquals(ErrorCode.DOWNSTREAM_ERROR,
                code(new ProcessingException(new JsonParseException(null, "Unexpected character ('<')"))));
    }

    @Test
    void anErrorStatusIsDownstreamErrorAndA404IsUnknownUser() {
        assertEquals(ErrorCode.DOWNSTREAM_ERROR, DownstreamFailures.fromStatus(Response.status(500).build()).code());
        assertEquals(ErrorCode.DOWNSTREAM_ERROR, DownstreamFailures.fromStatus(Response.status(503).build()).code());
        assertEquals(ErrorCode.USER_NOT_FOUND, DownstreamFailures.fromStatus(Response.status(404).build()).code());
    }

    @Test
    void anythingElseIsLeftAsItIsAndAClassifiedFailureIsKept() {
        IllegalArgumentException bug = new IllegalArgumentException("a bug");
        assertSame(bug, DownstreamFailures.translate(bug));
        ServiceException classified = new ServiceException(ErrorCode.AGGREGATE_DEADLINE);
        assertSame(classified, DownstreamFailures.translate(classified));
    }

    private static ErrorCode code(Throwable failure) {
        return ((ServiceException) DownstreamFailures.translate(failure)).code();
    }
}
