package io.concurrencylab.backend;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.concurrencylab.error.ErrorBody;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.util.Random;

/**
 * One backend instance: {@code GET /api/data}, {@code POST /api/process} (echoes its JSON body), {@code GET /api/heavy}.
 * Every answer names the backend, echoes what the instance received (method, path, {@code Host},
 * {@code X-Forwarded-Prefix}) so that a gateway's rewriting can be checked, and carries the payload. Two drill
 * parameters make it fail on purpose: {@code status=400..599} answers that status, {@code delay_ms=N} waits N ms instead
 * of the drawn latency. Answers come after a Vert.x timer: waiting holds no thread.
 */
final class BackendInstance {

    static final String FORWARDED_PREFIX = "X-Forwarded-Prefix";
    private static final int MAX_BODY_BYTES = 64 * 1024;
    private static final int MAX_DRILL_DELAY_MS = 60_000;

    /** What every backend answers. */
    @RegisterForReflection
    record Answer(String backend, Received request, Object payload) {
    }

    @RegisterForReflection
    record Received(String method, String path, String host, String forwardedPrefix) {
    }

    private final Vertx vertx;
    private final ObjectMapper json;
    private final BackendDocuments documents;
    private final Random latencies;

    BackendInstance(Vertx vertx, ObjectMapper json, BackendDocuments documents, Random latencies) {
        this.vertx = vertx;
        this.json = json;
        this.documents = documents;
        this.latencies = latencies;
    }

    Router router() {
        Router router = Router.router(vertx);
        router.get("/api/" + Backend.DATA.path()).handler(request -> answer(request, Backend.DATA, documents.data));
        router.get("/api/" + Backend.HEAVY.path()).handler(request -> answer(request, Backend.HEAVY, documents.heavy));
        router.post("/api/" + Backend.PROCESS.path()).handler(BodyHandler.create().setBodyLimit(MAX_BODY_BYTES))
                .handler(this::process);
        return router;
    }

    private void process(RoutingContext request) {
        Buffer body = request.body().buffer();
        JsonNode echoed;
        try {
            echoed = json.readTree(body == null ? new byte[0] : body.getBytes());
        } catch (IOException e) {
            echoed = null;
        }
        if (echoed == null || echoed.isMissingNode()) {
            fail(request, 400, "bad_request", "The body is not JSON");
            return;
        }
        answer(request, Backend.PROCESS, echoed);
    }

    private void answer(RoutingContext request, Backend backend, Object payload) {
        int status;
        int delayMs;
        try {
            status = drill(request, "status", 400, 599, 200);
            delayMs = drill(request, "delay_ms", 0, MAX_DRILL_DELAY_MS, (int) backend.drawLatencyMs(latencies));
        } catch (IllegalArgumentException e) {
            fail(request, 400, "bad_request", e.getMessage());
            return;
        }
        Received received = new Received(request.request().method().name(), request.request().path(),
                request.request().getHeader(HttpHeaders.HOST), request.request().getHeader(FORWARDED_PREFIX));
        vertx.setTimer(Math.max(1, delayMs), fired -> {
            if (request.response().closed()) {
                return; // the caller gave up waiting
            }
            if (status != 200) {
                fail(request, status, "drill", "Failed on purpose (status=" + status + ")");
                return;
            }
            byte[] answer;
            try {
                answer = json.writeValueAsBytes(new Answer(backend.path(), received, payload));
            } catch (JacksonException e) {
                fail(request, 500, "internal_error", "The answer could not be serialised");
                return;
            }
            request.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(Buffer.buffer(answer));
        });
    }

    /** A drill parameter: the fallback when absent, else a whole number within the bounds or a 400. */
    private static int drill(RoutingContext request, String name, int min, int max, int fallback) {
        String raw = request.queryParams().get(name);
        if (raw == null) {
            return fallback;
        }
        int value;
        try {
            value = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            value = min - 1;
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " is a whole number from " + min + " to " + max);
        }
        return value;
    }

    private static void fail(RoutingContext request, int status, String error, String message) {
        if (!request.response().closed()) {
            request.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(Json.encode(new ErrorBody(status, error, message, null)));
        }
    }
}
