package io.concurrencylab.error;

import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

/**
 * Classifies a failed database call of either stack by the drivers' exception types and SQL states, so that an
 * outage answers 503 and a busy pool answers 503 with its own code, while a query error (a bug, a schema problem)
 * stays an internal error. The blocking and the reactive repository both translate through here.
 */
public final class DatabaseFailures {

    /** SQL state class 08: connection exception (SQL standard; MySQL, MariaDB and both drivers use it). */
    private static final String CONNECTION_EXCEPTION_CLASS = "08";

    private DatabaseFailures() {
    }

    /** The failure as the error contract sees it: a {@link ServiceException}, or the failure itself if it is ours. */
    public static Throwable translate(Throwable failure) {
        if (failure instanceof ServiceException) {
            return failure;
        }
        if (isUnavailable(failure)) {
            return new ServiceException(ErrorCode.DATABASE_UNAVAILABLE, ErrorCode.DATABASE_UNAVAILABLE.message(), failure);
        }
        if (isBusy(failure)) {
            return new ServiceException(ErrorCode.DATABASE_BUSY, ErrorCode.DATABASE_BUSY.message(), failure);
        }
        return failure;
    }

    /** The same for blocking callers, which throw it: a runtime exception translates to one. */
    public static RuntimeException translate(RuntimeException failure) {
        return (RuntimeException) translate((Throwable) failure);
    }

    static boolean isUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof ClosedConnectionException
                    || t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLRecoverableException
                    || t instanceof SQLException sql && isConnectionState(sql.getSQLState())
                    || t instanceof DatabaseException db && isConnectionState(db.getSqlState())) {
                return true;
            }
        }
        return false;
    }

    /**
     * No connection became free within the pool's wait bound. Agroal reports that as an SQLException with neither SQL
     * state nor vendor code (a server error always has a state); the Vert.x pool as a bare NoStackTraceThrowable, or
     * ConnectionPoolTooBusyException when its wait queue is full.
     */
    static boolean isBusy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLTimeoutException || t instanceof ConnectionPoolTooBusyException
                    || t instanceof NoStackTraceThrowable
                    || t.getClass() == SQLException.class && ((SQLException) t).getSQLState() == null
                            && ((SQLException) t).getErrorCode() == 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean isConnectionState(String sqlState) {
        return sqlState != null && sqlState.startsWith(CONNECTION_EXCEPTION_CLASS);
    }
}
