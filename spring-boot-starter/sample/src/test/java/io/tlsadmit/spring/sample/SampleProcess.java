package io.tlsadmit.spring.sample;

import io.tlsadmit.testing.FreePort;
import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.PrometheusScrape;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * The sample jar run as outside checks run it: {@code java -jar tlsadmit-spring-boot-sample.jar --server.port=P
 * ... --management.server.port=M}, on free ports, with its output kept for failure messages.
 */
final class SampleProcess implements AutoCloseable {

    private static final Path JAR = Path.of(System.getProperty("tlsadmit.sample.jar",
            "../target/tlsadmit-spring-boot-sample.jar"));

    private final Process process;
    private final StringBuffer output = new StringBuffer();
    private final int port;
    private final int managementPort;

    private SampleProcess(Process process, int port, int managementPort) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        Thread reader = new Thread(this::readOutput, "sample-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts the jar with {@code --server.port} and {@code --management.server.port} free, plus {@code arguments}. */
    static SampleProcess start(Jdk jdk, String... arguments) throws IOException {
        int port = FreePort.pick();
        int managementPort = FreePort.pick();
        List<String> command = new ArrayList<>(List.of(jdk.java().toString(), "-jar", JAR.toAbsolutePath().toString(),
                "--server.port=" + port, "--management.server.port=" + managementPort));
        command.addAll(List.of(arguments));
        SampleProcess sample = new SampleProcess(new ProcessBuilder(command).redirectErrorStream(true).start(), port,
                managementPort);
        sample.awaitReady(Duration.ofSeconds(120));
        return sample;
    }

    private void readOutput() {
        try (InputStream in = process.getInputStream()) {
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // the process is gone
        }
    }

    /** Ready when Actuator's health answers on the management port (the HTTPS port starts before it). */
    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the sample exited with " + process.exitValue() + ":\n" + output);
            }
            try {
                if (managementGet("/actuator/health").statusCode() == 200) {
                    return;
                }
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof ConnectException)) {
                    throw e;
                }
            }
            sleep(200);
        }
        throw new IllegalStateException("the sample was not ready in " + timeout + ":\n" + output);
    }

    int port() {
        return port;
    }

    String output() {
        return output.toString();
    }

    /** A client context that trusts the certificate the sample made (its path is in the sample's output). */
    SSLContext clientContext() {
        String text = output.toString();
        int at = text.indexOf(SampleKeystore.CERTIFICATE_LINE);
        if (at < 0) {
            throw new IllegalStateException("the sample printed no certificate path:\n" + text);
        }
        int from = at + SampleKeystore.CERTIFICATE_LINE.length();
        Path pem = Path.of(text.substring(from, text.indexOf('\n', from)).trim());
        try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(pem))) {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("sample", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLSv1.3");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + pem, e);
        }
    }

    /**
     * {@code GET /} over HTTPS on a new connection. Clients made from the same context share its TLS
     * session cache, so a second call with the same context resumes (TLS 1.3 PSK).
     */
    HttpResponse<String> get(SSLContext context) throws IOException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(context)
                .connectTimeout(Duration.ofSeconds(5)).build();
        try {
            return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /**
     * A TLS handshake from another source address (another user: the gate may let a host it has just
     * admitted open a few more connections on credit, as a browser's page needs).
     */
    void handshakeFrom(String sourceAddress, SSLContext context) throws IOException {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(sourceAddress), 0));
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
            socket.setSoTimeout(10_000);
            socket.startHandshake();
        }
    }

    PrometheusScrape prometheus() {
        HttpResponse<String> response = managementGet("/actuator/prometheus");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("/actuator/prometheus answered " + response.statusCode());
        }
        return PrometheusScrape.parse(response.body());
    }

    private HttpResponse<String> managementGet(String path) {
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERM (Spring Boot closes the context), then kill after 30 s. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
