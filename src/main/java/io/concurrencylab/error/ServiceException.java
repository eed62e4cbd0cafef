package io.concurrencylab.error;

/**
 * A failure already classified where it arose (token, id, database, downstream, deadline): the mapper only turns
 * its code into the JSON answer. These are expected outcomes, not bugs, so no stack trace is built; the cause, if
 * any, is kept for the log.
 */
public class ServiceException extends RuntimeException {

    private final ErrorCode code;

    public ServiceException(ErrorCode code) {
        this(code, code.message(), null);
    }

    public ServiceException(ErrorCode code, String message) {
        this(code, message, null);
    }

    public ServiceException(ErrorCode code, String message, Throwable cause) {
        super(message, cause, false, false);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
