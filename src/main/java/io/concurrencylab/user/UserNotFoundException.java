package io.concurrencylab.user;

/** The token was valid but names no user we know. Mapped to 404. */
public class UserNotFoundException extends RuntimeException {

    public UserNotFoundException(String who) {
        super("No user " + who);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // an expected outcome, not a bug: no stack trace to build
    }
}
