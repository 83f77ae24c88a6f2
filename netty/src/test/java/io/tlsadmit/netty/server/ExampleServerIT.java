package io.tlsadmit.netty.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.testing.Promtool;
import io.tlsadmit.testing.TestKeystore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The example jar as the outside checks run it: {@code java -jar target/tlsadmit-netty-server.jar --port P
 * --engine E --budget static --rate R --burst B --metrics-port M}, with curl as the client, and the scrape
 * checked by Prometheus's own {@code promtool check metrics} ({@link Promtool}).
 */
class ExampleServerIT {

    private static final Pattern LISTENING = Pattern.compile("https://127\\.0\\.0\\.1:(\\d+) .*metrics at http://127\\.0\\.0\\.1:(\\d+)/");

    @TempDir
    static Path dir;

    /** A running example server and the ports it printed. */
    private record Server(Process process, int port, int metricsPort) implements AutoCloseable {
        String metrics() throws IOException, InterruptedException {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + metricsPort + "/tlsadmit/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Any free ports (0), read back from the line the server prints when it listens. */
    private static Server start(String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", System.getProperty("tlsadmit.netty.server.jar"), "--port", "0", "--metrics-port", "0"));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertTrue(line != null && line.startsWith(ExampleServer.READY), "first line: " + line);
        Matcher ports = LISTENING.matcher(line);
        assertTrue(ports.find(), line);
        return new Server(process, Integer.parseInt(ports.group(1)), Integer.parseInt(ports.group(2)));
    }

    /**
     * Two tokens: curl spends one per TLS version on its first connection and resumes on the next ones from its own
     * session cache (TLS 1.3 PSK, TLS 1.2 session id) within one invocation; a third curl, a new client, is closed
     * before any handshake.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl"})
    void theJarServesOkWithinItsBudgetAndExposesTheGateFamilies(String engine) throws Exception {
        Path certificate = dir.resolve("netty-" + engine + ".pem");
        try (Server server = start("--engine", engine, "--budget", "static", "--rate", "0.001", "--burst", "2",
                "--connections-per-new-user", "1", "--certificate-out", certificate.toString())) {
            String url = "https://localhost:" + server.port();
            List<String> verified = List.of("--cacert", certificate.toString(),
                    "--resolve", "localhost:" + server.port() + ":127.0.0.1", "-H", "Connection: close");
            assertEquals("200 200 400", curl(verified, "", url + "/", url + "/work?n=3", url + "/work?n=x"));
            assertEquals("200 200", curl(verified, "--tlsv1.2 --tls-max 1.2", url + "/", url + "/"));
            // both tokens spent: a new client is closed before any handshake (curl: 000)
            assertEquals("000", curl(List.of("-k"), "", "https://127.0.0.1:" + server.port() + "/"));

            String text = server.metrics();
            PrometheusScrape metrics = PrometheusScrape.parse(text);
            String connector = GatedHttpsServer.GATE_NAME;
            assertEquals(2, metrics.value("tlsadmit_connections_total", "connector", connector, "verdict", "NEW",
                    "decision", "admitted"), text);
            assertEquals(1, metrics.value("tlsadmit_connections_total", "connector", connector, "verdict", "NEW",
                    "decision", "refused"), text);
            assertEquals(2, metrics.value("tlsadmit_connections_total", "verdict", "RESUME_PSK", "decision", "admitted"), text);
            // curl 7.88 (OpenSSL 3.0) resumes TLS 1.2 by session id, which the gate finds in the server's cache
            assertEquals(1, metrics.value("tlsadmit_connections_total", "verdict", "RESUME_SESSION_ID", "decision", "admitted"), text);
            assertEquals(1, metrics.value("tlsadmit_handshakes_total", "connector", connector, "kind", "full",
                    "version", "TLSv1.3"), text);
            assertEquals(1, metrics.value("tlsadmit_handshakes_total", "kind", "full", "version", "TLSv1.2"), text);
            assertEquals(2, metrics.value("tlsadmit_handshakes_total", "kind", "resumed", "version", "TLSv1.3"), text);
            assertEquals(1, metrics.value("tlsadmit_handshakes_total", "kind", "resumed", "version", "TLSv1.2"), text);
            assertTrue(metrics.has("tlsadmit_budget_tokens"), text);
            Promtool.checkMetrics(text);
        }
    }

    /** {@code --gate off}: the same server with nothing in front of SslHandler (overload-bench's "off"), a key store's key. */
    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl"})
    void withoutTheGateEveryNewClientIsServed(String engine) throws Exception {
        TestKeystore keystore = TestKeystore.create(dir);
        try (Server server = start("--engine", engine, "--gate", "off", "--key-store", keystore.path().toString(),
                "--key-store-password", keystore.password())) {
            List<String> verified = List.of("--cacert", keystore.certificatePem().toString(),
                    "--resolve", "localhost:" + server.port() + ":127.0.0.1");
            String url = "https://localhost:" + server.port() + "/";
            for (int i = 0; i < 3; i++) {
                assertEquals("200", curl(verified, "", url));
            }
            assertFalse(PrometheusScrape.parse(server.metrics()).has("tlsadmit_connections_total"));
        }
    }

    /** A bad option stops the start with status 2 and a message naming it. */
    @Test
    void aBadOptionNamesItself() throws Exception {
        assertBadOption("--warm-up-handshakes", "--warm-up-handshakes", "-1");
        assertBadOption("--key-store", "--key", "ec", "--key-store", dir.resolve("none.p12").toString());
        assertBadOption("--key", "--key", "dsa");
    }

    private static void assertBadOption(String named, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", System.getProperty("tlsadmit.netty.server.jar"), "--port", "0"));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue(), output);
        assertTrue(output.contains(named), output);
    }

    /** Each URL's status, space-separated, from one curl invocation (one session cache). */
    private static String curl(List<String> options, String tls, String... urls) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "-s", "--max-time", "10"));
        command.addAll(options);
        if (!tls.isEmpty()) {
            command.addAll(List.of(tls.split(" ")));
        }
        for (String url : urls) {
            command.addAll(List.of("-o", "/dev/null", "-w", "%{http_code} ", url));
        }
        Process curl = new ProcessBuilder(command).start();
        String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(curl.waitFor(20, TimeUnit.SECONDS));
        return output;
    }
}
