package io.concurrencylab.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The aggregation's downstream as a tiny HTTP/1.1 server of the test's own, on plain sockets: it answers the three
 * records at once, until {@link #stallThenDrip} makes it stall every answer, then send it one byte a second, as a
 * downstream whose disk or network is failing does. Each connection has a virtual thread.
 */
public final class DrippingDownstream implements AutoCloseable {

    private static final Pattern REQUEST = Pattern.compile("GET /downstream/(base|detail|extra)/(\\d+) HTTP/1\\.1");

    private final ServerSocket server;
    private final Thread acceptor;
    private final AtomicInteger dripped = new AtomicInteger();
    /** Until then every answer waits; until {@link #dripUntil} it is sent one byte a second (nanoTime). */
    private volatile long stallUntil;
    private volatile long dripUntil;

    public DrippingDownstream() {
        try {
            server = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        acceptor = Thread.ofPlatform().daemon().name("dripping-downstream").start(this::accept);
    }

    public String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** From now on, each answer waits out the stall, then goes one byte a second for the drip, then all at once. */
    public void stallThenDrip(Duration stall, Duration drip) {
        long now = System.nanoTime();
        dripUntil = now + stall.toNanos() + drip.toNanos();
        stallUntil = now + stall.toNanos();
    }

    /** Answers that were stalled or dripped so far. */
    public int dripped() {
        return dripped.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII));
            OutputStream out = socket.getOutputStream();
            String requestLine;
            while ((requestLine = in.readLine()) != null) {
                for (String header = in.readLine(); header != null && !header.isEmpty(); header = in.readLine()) {
                    // GET requests only: no body to skip
                }
                byte[] answer = answer(requestLine);
                if (System.nanoTime() < dripUntil) {
                    dripped.incrementAndGet();
                    drip(answer, out);
                } else {
                    out.write(answer);
                    out.flush();
                }
            }
        } catch (IOException | InterruptedException gone) {
            // the app gave up on the call and closed the connection
        }
    }

    private void drip(byte[] answer, OutputStream out) throws IOException, InterruptedException {
        long wait = stallUntil - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(Duration.ofNanos(wait));
        }
        int sent = 0;
        while (sent < answer.length && System.nanoTime() < dripUntil) {
            out.write(answer[sent++]);
            out.flush();
            Thread.sleep(1_000);
        }
        out.write(answer, sent, answer.length - sent);
        out.flush();
    }

    private static byte[] answer(String requestLine) {
        Matcher request = REQUEST.matcher(requestLine);
        String status = "200 OK";
        String body;
        if (!request.matches()) {
            status = "404 Not Found";
            body = "{}";
        } else {
            long id = Long.parseLong(request.group(2));
            body = switch (request.group(1)) {
                case "base" -> "{\"id\":" + id + ",\"name\":\"User " + id + "\"}";
                case "detail" -> "{\"id\":" + id + ",\"age\":" + (20 + id % 50) + ",\"sex\":\"F\"}";
                default -> "{\"id\":" + id + ",\"phone\":\"+1-555-" + id + "\",\"level\":\"gold\"}";
            };
        }
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        String head = "HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\nConnection: keep-alive\r\n\r\n";
        return (head + body).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        server.close();
        acceptor.join(5_000);
    }
}
