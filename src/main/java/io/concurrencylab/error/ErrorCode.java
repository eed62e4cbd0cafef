package io.concurrencylab.error;

/**
 * Every error answer the service gives, for every model: the HTTP status and the {@code error} code of the JSON body.
 * Client mistakes are 4xx, outages and overload 5xx with a code that names whose fault it is.
 */
public enum ErrorCode {

    BAD_REQUEST(400, "bad_request", "The request is not valid"),
    INVALID_TOKEN(401, "invalid_token", "A valid bearer token with an email claim is required"),
    USER_NOT_FOUND(404, "user_not_found", "No such user"),
    INTERNAL_ERROR(500, "internal_error", "Unexpected failure"),
    DOWNSTREAM_ERROR(502, "downstream_error", "The downstream service answered with an error"),
    DOWNSTREAM_UNAVAILABLE(502, "downstream_unavailable", "The downstream service could not be reached"),
    DATABASE_UNAVAILABLE(503, "database_unavailable", "The database is not available, try again later"),
    DATABASE_BUSY(503, "database_busy", "No database connection became free in time, try again later"),
    SERVICE_OVERLOADED(503, "service_overloaded", "Too many requests in progress, try again later"),
    CACHE_UNAVAILABLE(503, "cache_unavailable", "The shared cache could not be reached, try again later"),
    DOWNSTREAM_TIMEOUT(504, "downstream_timeout", "The downstream service did not answer in time"),
    AGGREGATE_DEADLINE(504, "aggregate_deadline", "The aggregation did not complete within its deadline");

    private final int status;
    private final String code;
    private final String message;

    ErrorCode(int status, String code, String message) {
        this.status = status;
        this.code = code;
        this.message = message;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String message() {
        return message;
    }

    /** Answers a client may simply repeat a little later: they carry {@code Retry-After}. */
    public boolean isRetryable() {
        return status == 503;
    }
}
