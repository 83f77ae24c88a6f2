package io.tlsadmit.netty.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.FreePort;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.testing.Promtool;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The example jar as the outside checks run it: {@code java -jar target/tlsadmit-netty-server.jar --port P
 * --engine E --budget static --rate R --burst B --metrics-port M}, with curl as the client, and the scrape
 * checked by Prometheus's own {@code promtool check metrics} ({@link Promtool}).
 */
class ExampleServerIT {

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "openssl"})
    void theJarServesOkWithinItsBudgetAndExposesTheGateFamilies(String engine) throws Exception {
        int port = FreePort.pick();
        int metricsPort = FreePort.pick();
        Path certificate = Files.createTempFile("tlsadmit-netty-", ".pem");
        Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", System.getProperty("tlsadmit.netty.server.jar"), "--port", String.valueOf(port),
                "--engine", engine, "--budget", "static", "--rate", "0.001", "--burst", "1",
                "--connections-per-new-user", "1", "--metrics-port", String.valueOf(metricsPort),
                "--certificate-out", certificate.toString())
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertTrue(line != null && line.startsWith(ExampleServer.READY), "first line: " + line);

            assertEquals("200", curl("--cacert", certificate.toString(), "-o", "/dev/null", "-w", "%{http_code}",
                    "https://localhost:" + port + "/", "--resolve", "localhost:" + port + ":127.0.0.1"));
            // the one token is spent: a second new client is closed before any handshake (curl: 000)
            assertEquals("000", curl("-k", "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:" + port + "/"));

            String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + metricsPort + "/tlsadmit/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            PrometheusScrape metrics = PrometheusScrape.parse(text);
            String connector = GatedHttpsServer.GATE_NAME;
            assertEquals(1, metrics.value("tlsadmit_connections_total", "connector", connector, "verdict", "NEW",
                    "decision", "admitted"), text);
            assertEquals(1, metrics.value("tlsadmit_connections_total", "connector", connector, "verdict", "NEW",
                    "decision", "refused"), text);
            assertEquals(1, metrics.value("tlsadmit_handshakes_total", "connector", connector, "kind", "full",
                    "version", "TLSv1.3"), text);
            assertTrue(metrics.has("tlsadmit_budget_tokens"), text);
            Promtool.checkMetrics(text);
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
            Files.deleteIfExists(certificate);
        }
    }

    private static String curl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "-s", "--max-time", "10"));
        command.addAll(List.of(args));
        Process curl = new ProcessBuilder(command).start();
        String output = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(curl.waitFor(20, TimeUnit.SECONDS));
        return output;
    }
}
