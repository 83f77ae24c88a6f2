package io.tlsadmit.experiment.server;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.testing.TestKeystore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy (the Debian package) in front of Tomcat's plain HTTP connector, the tool an operator would reach for
 * instead of the gate, in three configurations (experiment/README.md shows each in full):
 * <ul>
 * <li>{@code haproxy}: TLS terminated with {@code maxsslrate}. Above the rate HAProxy stops accepting, so new
 * connections wait in the listen backlog rather than being refused.</li>
 * <li>{@code haproxy-reject}: TLS terminated; a connection over the rate is rejected as it is accepted, before any
 * TLS work, and the backlog is short, so users are refused rather than left to wait.</li>
 * <li>{@code haproxy-hello}: a TCP frontend reads the ClientHello and rejects over the rate only the hellos that
 * offer no session ticket; the rest go to a TLS-terminating frontend over an abstract unix socket.</li>
 * </ul>
 */
public final class Haproxy implements AutoCloseable {

    /**
     * The listen backlog of the rejecting modes. Short, so that connections the server cannot take soon are not
     * kept waiting; the rate rules refuse the excess anyway, this bounds what waits while HAProxy is busy.
     */
    static final int SHORT_BACKLOG = 64;

    private final Process process;
    private final int port;

    private Haproxy(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * One configuration. {@code rate}: for {@code haproxy} the {@code maxsslrate} (0: none); for the others the new
     * connections (or new-looking hellos) admitted per second, 0 admitting none. {@code keepAliveMillis}: how long
     * an idle client connection is kept, as Tomcat's {@code keepAliveTimeout}. {@code threads}: HAProxy's
     * {@code nbthread}, 1 for the one CPU the server has, more where it may get more CPUs during the run.
     * {@code ticketKeys}: the TLS ticket keys ({@link #writeTicketKeys}), as an operator keeps them to resume
     * sessions across restarts and instances.
     */
    public record Config(Mode mode, Path pem, Path ticketKeys, String tls, int port, int backendPort, int rate,
            int keepAliveMillis, int threads) {

        public Config {
            if (!mode.haproxy()) {
                throw new IllegalArgumentException("not a HAProxy mode: " + mode.label());
            }
            if (rate < 0 || threads < 1) {
                throw new IllegalArgumentException("rate must be >= 0 and threads >= 1, got " + rate + ", " + threads);
            }
        }

        public String text() {
            String version = tls.equals("1.2") ? "TLSv1.2" : "TLSv1.3";
            String global = String.format(Locale.ROOT, """
                    global
                        nbthread %d
                        # each proxied connection takes two descriptors: stay well under the usual 20,000 limit
                        maxconn 8000
                    %s    tune.ssl.cachesize 100000
                        ssl-default-bind-options ssl-min-ver %s ssl-max-ver %s

                    defaults
                        timeout connect 5s
                        timeout client 20s
                        timeout server 30s

                    backend tomcat
                        mode http
                        server tomcat 127.0.0.1:%d maxconn 200

                    """, threads, mode == Mode.HAPROXY && rate > 0 ? "    maxsslrate " + rate + "\n" : "", version,
                    version, backendPort);
            // as Tomcat's keepAliveTimeout in the other modes: scaled with the think time
            String https = String.format(Locale.ROOT, """
                        mode http
                        option http-keep-alive
                        timeout http-keep-alive %dms
                        default_backend tomcat
                    """, keepAliveMillis);
            return global + switch (mode) {
                case HAPROXY -> String.format(Locale.ROOT, """
                        frontend rubis
                            bind 127.0.0.1:%d ssl crt %s tls-ticket-keys %s
                        """, port, pem, ticketKeys) + https;
                case HAPROXY_REJECT -> String.format(Locale.ROOT, """
                        # one entry for the whole frontend: the connections admitted, and their rate over the last second
                        backend admitted_connections
                            stick-table type integer size 1 expire 10s store gpc0,gpc0_rate(1s)

                        frontend rubis
                            bind 127.0.0.1:%d ssl crt %s tls-ticket-keys %s backlog %d
                            # tcp-request connection rules run as the connection is accepted, before the TLS handshake
                            tcp-request connection track-sc0 int(0) table admitted_connections
                            tcp-request connection reject if { sc0_gpc0_rate ge %d }
                            tcp-request connection sc-inc-gpc0(0)
                        """, port, pem, ticketKeys, SHORT_BACKLOG, rate) + https;
                case HAPROXY_HELLO -> String.format(Locale.ROOT, """
                        # one entry for the whole frontend: the new-looking hellos admitted, and their rate over the last second
                        backend admitted_new_hellos
                            stick-table type integer size 1 expire 10s store gpc0,gpc0_rate(1s)

                        frontend rubis
                            mode tcp
                            bind 127.0.0.1:%d backlog %d
                            # wait for the whole ClientHello (at most 5 s), then decide before any TLS work
                            tcp-request inspect-delay 5s
                            acl hello req.ssl_hello_type 1
                            # a SessionTicket extension with a ticket in it: a TLS 1.2 ticket resumption. Nothing else
                            # HAProxy reads tells a resumption: TLS 1.3's pre_shared_key is not among its fetches, and
                            # every TLS 1.3-capable client sends a random session id, new or not
                            acl offers_ticket req.ssl_st_ext 2
                            tcp-request content reject unless hello
                            tcp-request content track-sc0 int(0) table admitted_new_hellos unless offers_ticket
                            tcp-request content reject if !offers_ticket { sc0_gpc0_rate ge %d }
                            tcp-request content sc-inc-gpc0(0) unless offers_ticket
                            default_backend tls_frontend

                        backend tls_frontend
                            mode tcp
                            server tls abns@%s send-proxy-v2

                        frontend rubis_tls
                            bind abns@%s accept-proxy ssl crt %s tls-ticket-keys %s
                        """, port, SHORT_BACKLOG, rate, tlsSocket(), tlsSocket(), pem, ticketKeys) + https;
                default -> throw new AssertionError(mode);
            };
        }

        /** The TLS frontend's abstract socket: abstract names are machine-wide, so the port makes it this one's. */
        private String tlsSocket() {
            return "tlsadmit-experiment-tls-" + port;
        }
    }

    /** Starts HAProxy on {@code config}, written with its log to {@code dir}; returns once it listens. */
    public static Haproxy start(Path dir, Config config) {
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("haproxy.cfg");
            Files.writeString(file, config.text());
            Process process = new ProcessBuilder("haproxy", "-db", "-f", file.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.log").toFile()).start();
            Haproxy haproxy = new Haproxy(process, config.port());
            haproxy.awaitListening(dir);
            return haproxy;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start haproxy (bin/prerequisites installs it): " + e.getMessage(), e);
        }
    }

    /**
     * Fresh random TLS ticket keys in HAProxy's format: base64 lines of 80 bytes (AES-256), at least as many as
     * it keeps (3); the penultimate one encrypts.
     */
    public static Path writeTicketKeys(Path file) throws IOException {
        SecureRandom random = new SecureRandom();
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            byte[] key = new byte[80];
            random.nextBytes(key);
            keys.append(Base64.getEncoder().encodeToString(key)).append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, keys);
        return file;
    }

    /** HAProxy wants the certificate and its key in one PEM file; the test keystore is PKCS12. */
    public static Path certificateAndKey(Path dir, TestKeystore keystore) throws IOException {
        Files.createDirectories(dir);
        Path pem = dir.resolve("server.pem");
        Process openssl = new ProcessBuilder("openssl", "pkcs12", "-in", keystore.path().toString(), "-nodes",
                "-passin", "pass:" + keystore.password(), "-out", pem.toString())
                .redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes());
        try {
            if (!openssl.waitFor(30, TimeUnit.SECONDS) || openssl.exitValue() != 0) {
                throw new IllegalStateException("openssl pkcs12 failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        return pem;
    }

    private void awaitListening(Path dir) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("haproxy exited: " + Files.readString(dir.resolve("haproxy.log")));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                sleep();
            }
        }
        close();
        throw new IllegalStateException("haproxy did not listen on " + port + ": "
                + Files.readString(dir.resolve("haproxy.log")));
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public long pid() {
        return process.pid();
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
