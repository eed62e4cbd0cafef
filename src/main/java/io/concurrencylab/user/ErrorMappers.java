package io.concurrencylab.user;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.UnauthorizedException;
import io.smallrye.mutiny.CompositeException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.net.ConnectException;
import java.sql.SQLException;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.ClientWebApplicationException;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The error contract, in one place for all three models: every failure becomes a small JSON body with
 * a status that says whose fault it is. No stack trace reaches a client.
 */
public class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class);

    @ServerExceptionMapper({ AuthenticationFailedException.class, UnauthorizedException.class })
    public Response unauthorized(RuntimeException e) {
        Response response = ErrorBody.response(401, "invalid_token",
                "A valid bearer token with an email claim is required");
        response.getHeaders().putSingle(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        return response;
    }

    @ServerExceptionMapper
    public Response userNotFound(UserNotFoundException e) {
        return ErrorBody.response(404, "user_not_found", e.getMessage());
    }

    /** The downstream answered with an error status: its 404 is ours, anything else is a bad gateway. */
    @ServerExceptionMapper
    public Response downstreamStatus(ClientWebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status == 404) {
            return ErrorBody.response(404, "user_not_found", "The downstream service knows no such user");
        }
        return ErrorBody.response(502, "downstream_error", "The downstream service answered " + status);
    }

    /** The downstream could not be reached or was too slow. */
    @ServerExceptionMapper
    public Response downstreamUnreachable(ProcessingException e) {
        LOG.warnf("Downstream failure: %s", rootCause(e));
        if (has(e, TimeoutException.class) || mentionsTimeout(e)) {
            return ErrorBody.response(504, "downstream_timeout", "The downstream service did not answer in time");
        }
        return ErrorBody.response(502, "downstream_unavailable", "The downstream service could not be reached");
    }

    /** Our own HTTP errors (unknown path, wrong method, bad parameter) keep their status, in JSON. */
    @ServerExceptionMapper
    public Response http(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        return ErrorBody.response(status, "http_" + status, Response.Status.fromStatusCode(status) != null
                ? Response.Status.fromStatusCode(status).getReasonPhrase()
                : "HTTP " + status);
    }

    /** Everything else: a database that is down or overloaded is a 503, the rest is our bug. */
    @ServerExceptionMapper
    public Response unexpected(Exception e) {
        Throwable failure = e instanceof CompositeException composite ? composite.getCauses().get(0) : e;
        if (isDatabaseUnavailable(failure)) {
            LOG.warnf("Database unavailable: %s", rootCause(failure));
            return ErrorBody.response(503, "database_unavailable", "The database is not available, try again later");
        }
        LOG.error("Unexpected failure", failure);
        return ErrorBody.response(500, "internal_error", "Unexpected failure");
    }

    static boolean isDatabaseUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String type = t.getClass().getName();
            if (t instanceof SQLException || t instanceof ConnectException
                    || type.startsWith("org.hibernate.exception.JDBCConnection")
                    || type.startsWith("io.vertx.sqlclient.") || type.startsWith("io.vertx.mysqlclient.")
                    || type.equals("io.vertx.core.impl.NoStackTraceThrowable")
                    || type.equals("io.vertx.core.VertxException")) {
                return true;
            }
        }
        return false;
    }

    private static boolean has(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static boolean mentionsTimeout(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
        }
        return false;
    }

    private static String rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getName() + ": " + root.getMessage();
    }
}
