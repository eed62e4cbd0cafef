package io.concurrencylab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.data.EmbeddedDatabase;
import io.concurrencylab.support.DrippingDownstream;
import io.concurrencylab.support.Models;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.Tokens;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A slow database is not a dead one: the packaged app (the jar, or the executable of -Dnative) with its shipped
 * settings, every model under a moderate load at once, meets a database of its own that another client locks, whose
 * sessions an operator kills, whose connection limit is reached, and a downstream that stalls, then drips. Each fault
 * must end every request in its model's documented bound (docs/configuration.md): its answer, or a 503 or 504 with
 * the app's JSON error body; never a 500, a wrong user, no answer. Within 5 s of the fault's end every model serves
 * again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class DependencyFaultsIT {

    /** Requests a second per model: a moderate load, far below every limit. */
    static final int PER_SECOND = 10;
    /**
     * The documented bound on a database wait: the blocking models' 3 s for a connection plus 5 s for the answer
     * (quarkus.datasource.jdbc.acquisition-timeout, socketTimeout); the reactive model's
     * lab.datasource.reactive.deadline.
     */
    static final Duration DATABASE_BOUND = Duration.ofSeconds(8);
    /** The documented bound on an aggregation: lab.aggregate.deadline. */
    static final Duration AGGREGATE_BOUND = Duration.ofSeconds(6);
    /** What an answer may take beyond its bound on this side of the app: the HTTP exchange, a busy JVM. */
    static final Duration MARGIN = Duration.ofMillis(500);
    static final Duration RECOVERED = Duration.ofSeconds(5);
    static final int USERS = 50;
    /**
     * A stalled database's answers: its own 503s, and the first gate's once a second passed with lookups in flight and
     * none answered (its limit then falls to its floor, and the rest are shed at once).
     */
    static final Set<String> DATABASE_ERRORS = Set.of("503 database_unavailable", "503 database_busy",
            "503 service_overloaded");
    static final Set<String> DOWNSTREAM_ERRORS = Set.of("504 downstream_timeout", "504 aggregate_deadline");
    static final Pattern ERROR_BODY = Pattern.compile(
            "\\{\"status\":(\\d{3}),\"error\":\"([a-z_]+)\",\"message\":\"[^\"]+\"}");

    EmbeddedDatabase database;
    DrippingDownstream downstream;
    PackagedApp app;
    /** The other client: an operator's session, kept open so that a connection limit never shuts it out. */
    Connection operator;
    final List<String> tokens = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        database = EmbeddedDatabase.start();
        downstream = new DrippingDownstream();
        // The shipped settings: only where the database and the downstream are, the development key, seeded users.
        app = PackagedApp.start("dependency-faults", Map.of(
                "quarkus.datasource.jdbc.url", EmbeddedDatabase.jdbcUrl(database.port()),
                "quarkus.rest-client.downstream.url", downstream.url(),
                "mp.jwt.verify.publickey.location",
                Path.of("src/main/resources/publicKey.pem").toAbsolutePath().toString(),
                "lab.seed.users", Integer.toString(USERS)), Map.of());
        operator = DriverManager.getConnection(operatorUrl(), "operator", "");
        for (int n = 1; n <= USERS; n++) {
            tokens.add(Tokens.rs256("user" + n + "@example.com"));
        }
        // A fresh app's first requests fill its pools and compile its code: answers of a warm app are timed.
        for (int n = 0; n < 20 * Models.ALL.size(); n++) {
            for (Request request : List.of(lookup(n), aggregation(n))) {
                HttpResponse<String> response = app.send(request.http());
                assertEquals(200, response.statusCode(), request.http().build().uri() + ": " + response.body());
            }
        }
    }

    @AfterAll
    void stop() throws Exception {
        try (EmbeddedDatabase db = database; DrippingDownstream d = downstream; PackagedApp a = app;
                Connection o = operator) {
            assertEquals(0, app.logLinesWith("Unexpected failure"), "internal errors in " + app.log);
        }
    }

    @Test
    @Order(1)
    void aTableLockHeld12sEndsInA503WithinTheBound() throws Exception {
        try (Load load = lookups()) {
            PackagedApp.sleep(1_000);
            load.faultStarts();
            execute("LOCK TABLES users WRITE");
            PackagedApp.sleep(12_000);
            execute("UNLOCK TABLES");
            load.check("a table lock held 12 s", System.nanoTime(), DATABASE_BOUND, DATABASE_ERRORS, true);
        }
    }

    @Test
    @Order(2)
    void killedQueriesAndConnectionsEndInA503() throws Exception {
        try (Load load = lookups()) {
            PackagedApp.sleep(1_000);
            load.faultStarts();
            // A short lock first, so that every model has lookups in flight when their sessions are killed.
            execute("LOCK TABLES users WRITE");
            PackagedApp.sleep(2_000);
            Sessions queries = killAppSessions("KILL QUERY");
            PackagedApp.sleep(500);
            execute("UNLOCK TABLES");
            PackagedApp.sleep(1_000);
            execute("LOCK TABLES users WRITE");
            PackagedApp.sleep(2_000);
            Sessions connections = killAppSessions("KILL CONNECTION");
            PackagedApp.sleep(500);
            execute("UNLOCK TABLES");
            System.out.printf("dependency faults, kills: KILL QUERY on %s, then KILL CONNECTION on %s%n", queries,
                    connections);
            load.check("KILL QUERY, then KILL CONNECTION", System.nanoTime(), DATABASE_BOUND, DATABASE_ERRORS,
                    true);
        }
    }

    @Test
    @Order(3)
    void theConnectionLimitReachedEndsInA503() throws Exception {
        List<Connection> others = new ArrayList<>();
        try (Load load = lookups()) {
            PackagedApp.sleep(1_000);
            load.faultStarts();
            // Each refused connection would be a warning line of the server's (Aborted connection ...).
            execute("SET GLOBAL log_warnings = 1");
            execute("SET GLOBAL max_connections = 10");
            int killed = 0;
            try {
                // Other clients take the slots the app's killed sessions leave, as they free, until the app holds none.
                fill(others, Duration.ZERO);
                for (int round = 0; round < 10; round++) {
                    int left = killAppSessions("KILL CONNECTION").length();
                    if (left == 0) {
                        break;
                    }
                    killed += left;
                    fill(others, Duration.ofMillis(500));
                }
                System.out.printf("dependency faults, connection limit: 10, taken by %d other sessions, %d of the"
                        + " app's killed%n", others.size() + 1, killed);
                PackagedApp.sleep(5_000);
            } finally {
                for (Connection other : others) {
                    other.close();
                }
                execute("SET GLOBAL max_connections = 1000");
                execute("SET GLOBAL log_warnings = 2");
            }
            load.check("the connection limit reached, the app's sessions killed", System.nanoTime(),
                    DATABASE_BOUND, DATABASE_ERRORS, true);
        }
    }

    /** Opens sessions of another client until the server refuses one (error 1040), trying on for this long. */
    private void fill(List<Connection> others, Duration trying) {
        long until = System.nanoTime() + trying.toNanos();
        while (true) {
            try {
                others.add(DriverManager.getConnection(operatorUrl(), "other", ""));
            } catch (SQLException full) {
                if (System.nanoTime() >= until) {
                    return;
                }
                PackagedApp.sleep(5);
            }
        }
    }

    private String operatorUrl() {
        return "jdbc:mysql://127.0.0.1:" + database.port() + "/" + EmbeddedDatabase.DATABASE + "?sslMode=DISABLED";
    }

    @Test
    @Order(4)
    void aDownstreamThatStallsThenDripsEndsInA504WithinTheDeadline() throws Exception {
        try (Load load = new Load(this::aggregation)) {
            PackagedApp.sleep(1_000);
            load.faultStarts();
            downstream.stallThenDrip(Duration.ofSeconds(8), Duration.ofSeconds(12));
            PackagedApp.sleep(20_000);
            System.out.printf("dependency faults, downstream: %d calls stalled or dripped%n", downstream.dripped());
            load.check("the downstream stalled 8 s, then one byte a second for 12 s", System.nanoTime(),
                    AGGREGATE_BOUND, DOWNSTREAM_ERRORS, true);
        }
    }

    private Load lookups() {
        return new Load(this::lookup);
    }

    /** The lookup of user n, and what its answer must be. */
    private Request lookup(int n) {
        String model = Models.ALL.get(n % Models.ALL.size());
        int user = n / Models.ALL.size() % USERS + 1;
        return new Request(model, HttpRequest.newBuilder(app.uri("/" + model + "/users/me"))
                .header("Authorization", "Bearer " + tokens.get(user - 1)),
                "{\"email\":\"user" + user + "@example.com\"");
    }

    private Request aggregation(int n) {
        String model = Models.ALL.get(n % Models.ALL.size());
        int user = n / Models.ALL.size() % USERS + 1;
        return new Request(model, HttpRequest.newBuilder(app.uri("/" + model + "/users/" + user + "/aggregate")),
                "{\"id\":" + user + ",");
    }

    private void execute(String sql) throws SQLException {
        try (Statement statement = operator.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Kills every session of the app's user (lab), busy or idle; says how many of each. */
    private Sessions killAppSessions(String kill) throws SQLException {
        Map<Long, Boolean> sessions = new TreeMap<>();
        try (Statement statement = operator.createStatement(); ResultSet rows = statement.executeQuery("SELECT id,"
                + " command FROM information_schema.processlist WHERE user = 'lab' AND id <> CONNECTION_ID()")) {
            while (rows.next()) {
                sessions.put(rows.getLong(1), rows.getString(2).equals("Query"));
            }
        }
        int busy = 0;
        int idle = 0;
        for (Map.Entry<Long, Boolean> session : sessions.entrySet()) {
            try {
                execute(kill + " " + session.getKey());
                if (session.getValue()) {
                    busy++;
                } else {
                    idle++;
                }
            } catch (SQLException ended) {
                // it ended meanwhile (error 1094, unknown thread)
            }
        }
        return new Sessions(busy, idle);
    }

    /** Sessions killed: mid-request (a statement running) and idle. */
    record Sessions(int busy, int idle) {

        int length() {
            return busy + idle;
        }

        @Override
        public String toString() {
            return busy + " sessions mid-request and " + idle + " idle";
        }
    }

    record Request(String model, HttpRequest.Builder http, String expectedStart) {
    }

    /** One request's outcome: when it was sent, how long it took, and its status and error code, or what was wrong. */
    record Answer(String model, long sent, long millis, String outcome, boolean wrong) {
    }

    /**
     * {@link #PER_SECOND} requests a second per model, in turn, from start to close; each answer is judged when it
     * arrives. A request that gets no answer within 30 s counts as wrong.
     */
    final class Load implements AutoCloseable {

        private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
        private final ConcurrentLinkedQueue<CompletableFuture<Answer>> answers = new ConcurrentLinkedQueue<>();
        private int sent;
        private long faultStarted;

        Load(IntFunction<Request> requests) {
            long period = 1_000_000 / (PER_SECOND * Models.ALL.size());
            ticks.scheduleAtFixedRate(() -> answers.add(send(requests.apply(sent++))), 0, period,
                    TimeUnit.MICROSECONDS);
        }

        /** The fault begins now: the answers' times are told from here. */
        void faultStarts() {
            faultStarted = System.nanoTime();
        }

        private CompletableFuture<Answer> send(Request request) {
            long sent = System.nanoTime();
            return PackagedApp.HTTP.sendAsync(request.http().timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString()).handle((response, failure) -> {
                        long millis = (System.nanoTime() - sent) / 1_000_000;
                        if (failure != null) {
                            return new Answer(request.model(), sent, millis, "no answer: " + failure, true);
                        }
                        String body = response.body();
                        if (response.statusCode() == 200) {
                            boolean right = body.startsWith(request.expectedStart());
                            return new Answer(request.model(), sent, millis, right ? "200" : "200 " + body, !right);
                        }
                        Matcher error = ERROR_BODY.matcher(body);
                        boolean json = error.matches()
                                && error.group(1).equals(Integer.toString(response.statusCode()));
                        return new Answer(request.model(), sent, millis,
                                response.statusCode() + " " + (json ? error.group(2) : body), !json);
                    });
        }

        /**
         * Goes on loading past the fault's end for {@link #RECOVERED} and a second, then judges every request sent,
         * from a second before the fault on (waiting for the last answers): per model its answers, the slowest, and
         * when it served again.
         */
        void check(String fault, long end, Duration bound, Set<String> allowed, boolean hitsEveryModel) {
            PackagedApp.sleep(RECOVERED.toMillis() + 1_000);
            ticks.shutdownNow();
            List<Answer> all = answers.stream().map(CompletableFuture::join).toList();
            List<String> failures = new ArrayList<>();
            int hit = 0;
            for (String model : Models.ALL) {
                List<Answer> mine = all.stream().filter(a -> a.model().equals(model)).toList();
                Map<String, Integer> outcomes = new TreeMap<>();
                mine.forEach(a -> outcomes.merge(a.outcome(), 1, Integer::sum));
                Answer slowestAnswer = mine.stream().max(Comparator.comparingLong(Answer::millis)).orElseThrow();
                long slowest = slowestAnswer.millis();
                // Served again: the last request sent after the fault's end that did not get its user.
                long back = mine.stream().filter(a -> a.sent() > end && !a.outcome().equals("200"))
                        .mapToLong(a -> (a.sent() - end) / 1_000_000 + a.millis()).max().orElse(0);
                System.out.printf("dependency faults, %s: %s answers %s, slowest %d ms (%s, sent %d ms into the"
                        + " fault), serving %d ms after the fault's end%n", fault, model, outcomes, slowest,
                        slowestAnswer.outcome(), (slowestAnswer.sent() - faultStarted) / 1_000_000, back);
                mine.stream().filter(a -> a.wrong() || !a.outcome().equals("200") && !allowed.contains(a.outcome()))
                        .limit(3).forEach(a -> failures.add(model + ": " + a.outcome()));
                if (slowest > bound.plus(MARGIN).toMillis()) {
                    failures.add(model + ": slowest answer " + slowest + " ms, past its bound of " + bound);
                }
                if (back > RECOVERED.toMillis()) {
                    failures.add(model + ": not serving until " + back + " ms after the fault's end");
                }
                boolean hitHere = mine.stream().anyMatch(a -> !a.outcome().equals("200"));
                hit += hitHere ? 1 : 0;
                if (hitsEveryModel && !hitHere) {
                    failures.add(model + ": the fault never reached it, every answer was 200");
                }
            }
            assertTrue(hit > 0, fault + ": reached no model");
            assertEquals(List.of(), failures, fault);
        }

        @Override
        public void close() {
            ticks.shutdownNow();
        }
    }
}
