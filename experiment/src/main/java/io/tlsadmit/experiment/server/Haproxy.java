package io.tlsadmit.experiment.server;

import io.tlsadmit.testing.TestKeystore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy (the Debian package) terminating TLS in front of Tomcat's plain HTTP connector, the tool an operator
 * would reach for instead of the gate. {@code maxsslrate} caps new TLS sessions per second: above it HAProxy
 * stops accepting, so new connections wait in the listen backlog rather than being refused.
 */
public final class Haproxy implements AutoCloseable {

    private final Process process;
    private final int port;

    private Haproxy(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static Haproxy start(Path dir, TestKeystore keystore, String tls, int port, int backendPort,
            int maxSslRate, int keepAliveMillis) {
        try {
            Files.createDirectories(dir);
            Path pem = certificateAndKey(dir, keystore);
            Path config = dir.resolve("haproxy.cfg");
            Files.writeString(config, config(pem, tls, port, backendPort, maxSslRate, keepAliveMillis));
            Process process = new ProcessBuilder("haproxy", "-db", "-f", config.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.log").toFile()).start();
            Haproxy haproxy = new Haproxy(process, port);
            haproxy.awaitListening(dir);
            return haproxy;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start haproxy (bin/prerequisites installs it): " + e.getMessage(), e);
        }
    }

    /** {@code keepAliveMillis}: how long an idle client connection is kept, as Tomcat's {@code keepAliveTimeout}. */
    static String config(Path pem, String tls, int port, int backendPort, int maxSslRate, int keepAliveMillis) {
        String version = tls.equals("1.2") ? "TLSv1.2" : "TLSv1.3";
        return String.format(Locale.ROOT, """
                global
                    nbthread 1
                    # each proxied connection takes two descriptors: stay well under the usual 20,000 limit
                    maxconn 8000
                    %s
                    tune.ssl.cachesize 100000
                    ssl-default-bind-options ssl-min-ver %s ssl-max-ver %s

                defaults
                    mode http
                    option http-keep-alive
                    timeout connect 5s
                    timeout client 20s
                    # as Tomcat's keepAliveTimeout in the other modes: scaled with the think time
                    timeout http-keep-alive %dms
                    timeout server 30s

                frontend rubis
                    bind 127.0.0.1:%d ssl crt %s
                    default_backend tomcat

                backend tomcat
                    server tomcat 127.0.0.1:%d maxconn 200
                """, maxSslRate > 0 ? "maxsslrate " + maxSslRate : "", version, version, keepAliveMillis, port, pem,
                backendPort);
    }

    /** HAProxy wants the certificate and its key in one PEM file; the test keystore is PKCS12. */
    private static Path certificateAndKey(Path dir, TestKeystore keystore) throws IOException {
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
