package io.tlsadmit.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code openssl s_client}, the reference client for resumption: sessions are saved and reused through
 * files ({@code -sess_out}/{@code -sess_in}), and its "New"/"Reused" line is what a user would check.
 * Sends one HTTP/1.1 request with {@code Connection: close} and collects everything it prints.
 */
public final class OpenSslClient {

    private final int port;
    private final Path caFile;
    private final List<String> options = new ArrayList<>();
    private String path = "/";
    private String serverName = "localhost";
    private boolean renegotiate;

    private OpenSslClient(int port, Path caFile) {
        this.port = port;
        this.caFile = caFile;
    }

    /** A client of 127.0.0.1:port sending SNI (and Host) {@code localhost} and trusting the keystore's certificate. */
    public static OpenSslClient to(int port, TestKeystore keystore) {
        return new OpenSslClient(port, keystore.certificatePem());
    }

    public OpenSslClient tls12() {
        options.add("-tls1_2");
        return this;
    }

    public OpenSslClient tls13() {
        options.add("-tls1_3");
        return this;
    }

    /** TLS 1.2 without the SessionTicket extension: resumption by session id only. */
    public OpenSslClient noTicket() {
        options.add("-no_ticket");
        return this;
    }

    public OpenSslClient saveSession(Path file) {
        options.add("-sess_out");
        options.add(file.toString());
        return this;
    }

    public OpenSslClient resume(Path file) {
        options.add("-sess_in");
        options.add(file.toString());
        return this;
    }

    /**
     * Renegotiates once the handshake is done, before the request: s_client's {@code R} command (TLS 1.2;
     * OpenSSL asks for a new session, so the server would do a full handshake).
     */
    public OpenSslClient renegotiate() {
        renegotiate = true;
        return this;
    }

    /** The host name sent as SNI and in the request's {@code Host} header (Tomcat answers 400 when they differ). */
    public OpenSslClient serverName(String name) {
        this.serverName = name;
        return this;
    }

    public OpenSslClient path(String path) {
        this.path = path;
        return this;
    }

    /** Any other s_client option, e.g. {@code -bind 127.0.0.2:0}. */
    public OpenSslClient option(String... more) {
        options.addAll(List.of(more));
        return this;
    }

    public Result run() {
        // s_client reads its command letters (R) only without -ign_eof; then stdin must stay open until the
        // server has answered, or its end would close the connection first.
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + port,
                "-servername", serverName, "-CAfile", caFile.toString(), "-verify_return_error"));
        if (!renegotiate) {
            command.add("-ign_eof");
        }
        command.addAll(options);
        String request = "GET " + path + " HTTP/1.1\r\nHost: " + serverName + "\r\nConnection: close\r\n\r\n";
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() -> {
                try {
                    return process.getInputStream().readNBytes(1 << 20);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            OutputStream stdin = process.getOutputStream();
            try {
                if (renegotiate) {
                    stdin.write("R\n".getBytes(StandardCharsets.US_ASCII));
                    stdin.flush();
                    Thread.sleep(500); // a separate read for s_client: a command letter must start its buffer
                }
                stdin.write(request.getBytes(StandardCharsets.US_ASCII));
                stdin.flush();
                if (!renegotiate) {
                    stdin.close();
                }
            } catch (IOException e) {
                // s_client has already exited (the server closed): its output says why
            }
            boolean exited = process.waitFor(20, TimeUnit.SECONDS);
            closeQuietly(stdin);
            if (!exited) {
                process.destroyForcibly();
                throw new IllegalStateException("openssl s_client did not finish: " + String.join(" ", command));
            }
            return new Result(process.exitValue(), new String(output.join(), StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run openssl s_client", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void closeQuietly(OutputStream stdin) {
        try {
            stdin.close();
        } catch (IOException e) {
            // the process is gone
        }
    }

    /** What s_client printed. */
    public record Result(int exitCode, String output) {

        /** A handshake completed and s_client reported {@code Reused,}. */
        public boolean reused() {
            return handshakeCompleted() && output.contains("\nReused, ");
        }

        /** A handshake completed and s_client reported {@code New,} (a full handshake). */
        public boolean fullHandshake() {
            return handshakeCompleted() && output.contains("\nNew, ");
        }

        /**
         * The server answered the handshake and nothing failed. (s_client prints its session summary
         * even when the server closed at once, so that summary alone proves nothing.)
         */
        public boolean handshakeCompleted() {
            return handshakeBytesRead() > 0 && !output.contains(":error:");
        }

        /** From "SSL handshake has read N bytes"; 0 when the server sent nothing, -1 if not printed. */
        public long handshakeBytesRead() {
            String marker = "SSL handshake has read ";
            int at = output.indexOf(marker);
            if (at < 0) {
                return -1;
            }
            int from = at + marker.length();
            int to = output.indexOf(' ', from);
            try {
                return Long.parseLong(output.substring(from, to));
            } catch (RuntimeException e) {
                return -1;
            }
        }

        /** s_client started a renegotiation and saw it complete (it prints the new session's verification). */
        public boolean renegotiated() {
            int at = output.indexOf("RENEGOTIATING");
            return at >= 0 && output.indexOf("verify return:", at) >= 0 && httpStatus() > 0;
        }

        /** The HTTP status of the response, or -1 when none arrived. */
        public int httpStatus() {
            int at = output.indexOf("HTTP/1.1 ");
            if (at < 0 || at + 12 > output.length()) {
                return -1;
            }
            try {
                return Integer.parseInt(output.substring(at + 9, at + 12));
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        /** The negotiated protocol, e.g. {@code TLSv1.3}, or null. */
        public String protocol() {
            for (String line : output.split("\n")) {
                String trimmed = line.trim();
                if (trimmed.startsWith("Protocol") && trimmed.contains(":")) {
                    return trimmed.substring(trimmed.indexOf(':') + 1).trim();
                }
            }
            return null;
        }
    }
}
