package io.concurrencylab.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.mysql.cj.jdbc.exceptions.CommunicationsException;
import com.mysql.cj.jdbc.exceptions.MySQLQueryInterruptedException;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.mysqlclient.MySQLException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.hibernate.PessimisticLockException;
import org.hibernate.QueryTimeoutException;
import org.hibernate.exception.JDBCConnectionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The failures both stacks' drivers and pools raise, as they raise them, and the answer each one gets. */
class DatabaseFailuresTest {

    static final List<Throwable> OUTAGES = List.of(
            // Connector/J when the server is gone; Hibernate ORM wraps it
            new CommunicationsException("Communications link failure", new ConnectException("Connection refused")),
            new JDBCConnectionException("could not execute query", new SQLException("Connection lost", "08S01")),
            // the reactive client: refused, or closed under a query; a server's own connection error
            new CompletionException(new ConnectException("Connection refused: /127.0.0.1:3306")),
            ClosedConnectionException.INSTANCE,
            new MySQLException("Lost connection to server during query", 2013, "08S01"));

    /**
     * Statements the server interrupted (an operator's KILL QUERY or KILL CONNECTION, a statement timer) or gave up
     * waiting for: the database is slow or was stepped in on, not the query wrong.
     */
    static final List<Throwable> GIVEN_UP = List.of(
            // Connector/J after KILL QUERY, as Hibernate ORM wraps it; and after MariaDB's KILL CONNECTION
            new QueryTimeoutException("could not execute query", new MySQLQueryInterruptedException(
                    "Query execution was interrupted", "70100", 1317), "select u1_0.email from users u1_0"),
            new SQLException("Connection was killed", "70100", 1927),
            new SQLException("Lost connection to server during query", "HY000", 2013),
            new PessimisticLockException("could not execute query",
                    new SQLException("Lock wait timeout exceeded; try restarting transaction", "HY000", 1205), "select"),
            // the reactive client: the same codes from the server
            new CompletionException(new MySQLException("Query execution was interrupted", 1317, "70100")),
            new MySQLException("Connection was killed", 1927, "70100"),
            new MySQLException("Query execution was interrupted (max_statement_time exceeded)", 1969, "70100"),
            new MySQLException("Query execution was interrupted, maximum statement execution time exceeded", 3024,
                    "HY000"));

    static final List<Throwable> BUSY_POOLS = List.of(
            // Agroal's acquisition timeout: an SQLException with neither SQL state nor vendor code
            new SQLException("Sorry, acquisition timeout!"),
            // the Vert.x pool: a wait that timed out, or a full wait queue
            new NoStackTraceThrowable("Timeout"),
            new CompletionException(new ConnectionPoolTooBusyException("Connection pool reached max wait queue size")));

    static final List<Throwable> QUERY_ERRORS = List.of(
            new SQLSyntaxErrorException("You have an error in your SQL syntax", "42000", 1064),
            new MySQLException("Table 'lab.users' doesn't exist", 1146, "42S02"),
            new SQLException("Duplicate entry", "23000", 1062),
            new IllegalStateException("a bug"));

    @ParameterizedTest
    @FieldSource("OUTAGES")
    void anOutageIsDatabaseUnavailable(Throwable failure) {
        assertEquals(ErrorCode.DATABASE_UNAVAILABLE, code(failure));
    }

    @ParameterizedTest
    @FieldSource("GIVEN_UP")
    void anInterruptedOrKilledStatementIsDatabaseUnavailable(Throwable failure) {
        assertEquals(ErrorCode.DATABASE_UNAVAILABLE, code(failure));
    }

    @ParameterizedTest
    @FieldSource("BUSY_POOLS")
    void aPoolWithNoFreeConnectionInTimeIsDatabaseBusy(Throwable failure) {
        assertEquals(ErrorCode.DATABASE_BUSY, code(failure));
    }

    @ParameterizedTest
    @FieldSource("QUERY_ERRORS")
    void aQueryErrorStaysWhatItIsAnInternalError(Throwable failure) {
        assertSame(failure, DatabaseFailures.translate(failure));
    }

    @ParameterizedTest
    @FieldSource("OUTAGES")
    void aFailureAlreadyClassifiedIsKept(Throwable cause) {
        ServiceException classified = new ServiceException(ErrorCode.DATABASE_BUSY, "busy", cause);
        assertSame(classified, DatabaseFailures.translate(classified));
    }

    private static ErrorCode code(Throwable failure) {
        return ((ServiceException) DatabaseFailures.translate(failure)).code();
    }
}
