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
import java.util.Set;

/**
 * Classifies a failed database call of either stack by the drivers' exception types and SQL states, so that an
 * outage answers 503 and a busy pool answers 503 with its own code, while a query error (a bug, a schema problem)
 * stays an internal error. A statement the server interrupted (KILL QUERY, KILL CONNECTION, a statement timer) or gave
 * up waiting for is an outage too: the query was right, the database slow or stepped in on. The blocking and the
 * reactive repository both translate through here.
 */
public final class DatabaseFailures {

    /** SQL state class 08: connection exception (SQL standard; MySQL, MariaDB and both drivers use it). */
    private static final String CONNECTION_EXCEPTION_CLASS = "08";

    /** SQL state 70100: the server interrupted the statement (KILL QUERY, KILL CONNECTION, its statement timer). */
    private static final String INTERRUPTED_STATE = "70100";

    /**
     * The server's or the client's own codes for a statement it gave up on, whatever SQL state comes with them: 1317
     * query interrupted (KILL QUERY), 1927 connection killed (MariaDB's KILL CONNECTION), 2013 connection lost during
     * the query, 1969 and 3024 the statement's time limit (MariaDB's max_statement_time, MySQL's max_execution_time),
     * 1205 a lock wait timed out. The database is slow or its operator stepped in: a retry may succeed.
     */
    private static final Set<Integer> GAVE_UP_CODES = Set.of(1317, 1927, 2013, 1969, 3024, 1205);

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
                    || t instanceof DatabaseException db && isConnectionState(db.getSqlState())
                    || isGivenUp(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A statement the server interrupted or gave up waiting for, in either stack: Connector/J's SQLException
     * (Hibernate ORM wraps it in a QueryTimeoutException) and the reactive client's DatabaseException carry the same
     * state and code.
     */
    static boolean isGivenUp(Throwable failure) {
        if (failure instanceof SQLException sql) {
            return INTERRUPTED_STATE.equals(sql.getSQLState()) || GAVE_UP_CODES.contains(sql.getErrorCode());
        }
        if (failure instanceof DatabaseException db) {
            return INTERRUPTED_STATE.equals(db.getSqlState()) || GAVE_UP_CODES.contains(db.getErrorCode());
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
