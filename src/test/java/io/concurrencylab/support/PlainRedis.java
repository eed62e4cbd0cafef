package io.concurrencylab.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A Redis client for the tests, written against Redis' wire protocol (RESP 2) and nothing of the application's, so
 * that what the tests write, read and publish is what any other client of the same Redis would.
 */
public final class PlainRedis implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public PlainRedis(int port) {
        try {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(5_000);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends one command; answers a status, integer or bulk reply as text, a nil reply as null. */
    public String send(String... command) {
        try {
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("*" + command.length + "\r\n").getBytes(StandardCharsets.UTF_8));
            for (String argument : command) {
                byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
                request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                request.writeBytes(bytes);
                request.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
            }
            out.write(request.toByteArray());
            out.flush();
            return reply();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String reply() throws IOException {
        int type = in.read();
        String line = line();
        return switch (type) {
            case '+', ':' -> line;
            case '-' -> throw new IllegalStateException("Redis answered an error: " + line);
            case '$' -> {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    yield null;
                }
                String value = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                line(); // the CRLF after the value
                yield value;
            }
            default -> throw new IllegalStateException("Unexpected reply type " + (char) type + line);
        };
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\r'; b = in.read()) {
            if (b < 0) {
                throw new IOException("Redis closed the connection");
            }
            line.write(b);
        }
        in.read(); // '\n'
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
