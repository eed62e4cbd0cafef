package io.concurrencylab.error;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The error contract, in one place for all three models. Failures are classified where they arise (a
 * {@link ServiceException} with its {@link ErrorCode}); these mappers match types only. No stack trace reaches
 * a client.
 */
public class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class);

    @ServerExceptionMapper
    public Response classified(ServiceException e, HttpServerRequest request) {
        ErrorCode code = e.code();
        // Outages and gateway failures are worth a line each; a busy pool is load, counted by the metrics
        // (http_server_requests_seconds_count{status="503"}), and would flood the log exactly when it is busiest.
        if (code.status() >= 500) {
            LOG.logf(code == ErrorCode.DATABASE_BUSY ? Logger.Level.DEBUG : Logger.Level.WARN, "%s: %s%s", code.code(),
                    e.getMessage(), e.getCause() == null ? "" : " (" + e.getCause() + ")");
        }
        return withChallenge(ErrorBody.response(code, e.getMessage()), request);
    }

    @ServerExceptionMapper({ AuthenticationFailedException.class, UnauthorizedException.class })
    public Response unauthorized(RuntimeException e, HttpServerRequest request) {
        return withChallenge(ErrorBody.response(ErrorCode.INVALID_TOKEN, ErrorCode.INVALID_TOKEN.message()), request);
    }

    /**
     * A 401 names the scheme (RFC 6750) exactly once: the security layer has already set the challenge when it refused
     * a token, not when there was none or when the token lacked a usable email claim.
     */
    private static Response withChallenge(Response response, HttpServerRequest request) {
        if (response.getStatus() == 401 && !request.response().headers().contains(HttpHeaders.WWW_AUTHENTICATE)) {
            response.getHeaders().putSingle(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        return response;
    }

    /** Our own HTTP errors (unknown path, wrong method, unsupported media type) keep their status, in JSON. */
    @ServerExceptionMapper
    public Response http(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        Response.Status known = Response.Status.fromStatusCode(status);
        String reason = known != null ? known.getReasonPhrase() : "HTTP " + status;
        return ErrorBody.response(status, "http_" + status, reason, null, false);
    }

    /**
     * Anything unclassified is our bug: 500 with an incident id that is also in the log line with the stack trace.
     * Throwable, not Exception: Vert.x reports some failures as a bare Throwable.
     */
    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        String incident = UUID.randomUUID().toString();
        LOG.errorf(e, "Unexpected failure, incident %s", incident);
        return ErrorBody.response(ErrorCode.INTERNAL_ERROR.status(), ErrorCode.INTERNAL_ERROR.code(),
                ErrorCode.INTERNAL_ERROR.message(), incident, false);
    }
}
