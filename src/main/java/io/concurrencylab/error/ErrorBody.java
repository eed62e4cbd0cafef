package io.concurrencylab.error;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The JSON body of every error answer, for every model: {@code {"status":503,"error":"database_unavailable",
 * "message":"..."}}. An internal error adds {@code incident}, the id that is also in the log line with the stack trace.
 * <p>
 * Registered for reflection: it travels inside a {@code Response} built by the mappers, whose entity type a native
 * build cannot see (the records that resource methods and REST clients return are registered by Quarkus itself).
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorBody(int status, String error, String message, String incident) {

    /** Seconds a client should wait before it repeats a 503. */
    public static final String RETRY_AFTER_SECONDS = "1";

    public static Response response(ErrorCode code, String message) {
        return response(code.status(), code.code(), message, null, code.isRetryable());
    }

    static Response response(int status, String error, String message, String incident, boolean retryable) {
        Response.ResponseBuilder response = Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorBody(status, error, message, incident));
        if (retryable) {
            response.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        return response.build();
    }
}
