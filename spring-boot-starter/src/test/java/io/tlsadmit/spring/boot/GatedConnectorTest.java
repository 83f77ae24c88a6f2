package io.tlsadmit.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.tomcat.AdmissionNioProtocol;
import io.tlsadmit.tomcat.GateMXBean;
import io.tlsadmit.tomcat.TlsAdmissionValve;
import io.tlsadmit.tomcat.worker.ShortestWorkFirstExecutor;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.coyote.AbstractProtocol;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * One Spring Boot application with the starter, TLS from an SSL bundle, HTTP/2 on, Tomcat's own
 * (platform) threads: what a client sees of the gate, and what the application's metrics show.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatedConnectorTest {

    private BootApp app;
    private GateMXBean gate;
    private Path sessions;

    @BeforeAll
    void start() throws Exception {
        app = BootApp.start(BootApp.sslBundle(), "server.http2.enabled=true", "tlsadmit.budget=static",
                "tlsadmit.max-full-handshakes-per-second=1000", "tlsadmit.full-handshake-burst=1000");
        gate = app.gate();
        sessions = Files.createDirectories(Path.of("target", "sessions"));
    }

    @AfterAll
    void stop() {
        if (app != null) {
            app.close();
        }
    }

    @BeforeEach
    void openBudget() {
        budget(1000, 1000);
    }

    private void budget(double rate, long burst) {
        gate.setFullHandshakeBurst(burst);
        gate.setMaxFullHandshakesPerSecond(rate);
    }

    private OpenSslClient client() {
        return OpenSslClient.to(app.port(), BootApp.KEYSTORE);
    }

    @Test
    void theTlsConnectorIsGatedAndTheValveSeesItsGate() {
        assertInstanceOf(AdmissionNioProtocol.class, app.connector().getProtocolHandler());
        TlsAdmissionValve valve = (TlsAdmissionValve) Arrays.stream(app.connector().getService().getContainer()
                .getPipeline().getValves()).filter(TlsAdmissionValve.class::isInstance).findFirst().orElseThrow();
        assertEquals("/tlsadmit/metrics", valve.getMetricsPath());
        assertEquals(200, client().tls13().run().httpStatus());
        // The valve's own endpoint (loopback only) counts this connector: it found the gate.
        HttpResponse<String> metrics = app.https(HttpClient.Version.HTTP_1_1, "/tlsadmit/metrics");
        assertEquals(200, metrics.statusCode(), metrics.body());
        assertTrue(PrometheusScrape.parse(metrics.body()).value("tlsadmit_connections_total", "verdict", "NEW",
                "decision", "admitted") >= 2, metrics.body());
    }

    /** The scenario of the valve's AdmissionScenarios, through Spring Boot: every kind of resumption. */
    @Test
    void atBudgetZeroEveryResumptionIsAdmittedAndEveryNewClientRefused() {
        Path tls13 = sessions.resolve("tls13.pem");
        Path ticket = sessions.resolve("tls12-ticket.pem");
        Path sessionId = sessions.resolve("tls12-id.pem");
        long full = gate.getFullHandshakes();
        PrometheusScrape before = app.prometheus();
        assertFullHandshake(client().tls13().saveSession(tls13).run());
        assertFullHandshake(client().tls12().saveSession(ticket).run());
        assertFullHandshake(client().tls12().noTicket().saveSession(sessionId).run());
        List<OpenSslClient> resumptions = new ArrayList<>(List.of(client().tls13().resume(tls13),
                client().tls12().resume(ticket), client().tls12().noTicket().resume(sessionId)));
        assertEquals(full + 3, gate.getFullHandshakes(), "truth: one full handshake per session");

        budget(0, 0);
        long resumed = gate.getResumedHandshakes();
        for (OpenSslClient resumption : resumptions) {
            OpenSslClient.Result result = resumption.run();
            assertTrue(result.reused(), result.output());
            assertEquals(200, result.httpStatus(), result.output());
        }
        assertEquals(resumed + 3, gate.getResumedHandshakes(), "truth: every session resumed");
        long refused = gate.getNewRefused();
        OpenSslClient.Result new13 = client().tls13().run();
        OpenSslClient.Result new12 = client().tls12().run();
        assertFalse(new13.handshakeCompleted(), new13.output());
        assertFalse(new12.handshakeCompleted(), new12.output());
        assertEquals(0, new13.handshakeBytesRead(), "refused before the server sent anything");
        assertEquals(refused + 2, gate.getNewRefused());
        assertEquals(full + 3, gate.getFullHandshakes(), "no full handshake at budget 0");

        // The application's registry (Actuator) counted the same, under the valve's family names.
        PrometheusScrape after = app.prometheus();
        assertEquals(2, delta(before, after, "tlsadmit_connections_total", "verdict", "NEW", "decision", "refused"),
                after.text());
        assertEquals(1, delta(before, after, "tlsadmit_connections_total", "verdict", "RESUME_PSK",
                "decision", "admitted"));
        assertEquals(1, delta(before, after, "tlsadmit_connections_total", "verdict", "RESUME_TICKET",
                "decision", "admitted"));
        assertEquals(1, delta(before, after, "tlsadmit_connections_total", "verdict", "RESUME_SESSION_ID",
                "decision", "admitted"));
        assertEquals(3, delta(before, after, "tlsadmit_handshakes_total", "kind", "resumed"));
        assertEquals(3, delta(before, after, "tlsadmit_handshakes_total", "kind", "full"));
        assertEquals(0, after.value("tlsadmit_budget_full_handshakes_per_second"));
        assertTrue(after.has("tlsadmit_classification_seconds_count"), after.text());
    }

    @Test
    void http2WorksOverTheGatedConnector() {
        HttpResponse<String> response = app.https(HttpClient.Version.HTTP_2, "/");
        assertEquals(200, response.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, response.version());
        assertTrue(response.body().contains("verdict=NEW handshake=FULL protocol=HTTP/2.0"), response.body());
    }

    /** With Tomcat's own threads the gate's shortest-work-first pool serves the connector. */
    @Test
    void platformThreadsGetTheShortestWorkFirstPool() {
        AbstractProtocol<?> protocol = (AbstractProtocol<?>) app.connector().getProtocolHandler();
        assertInstanceOf(ShortestWorkFirstExecutor.class, protocol.getExecutor());
    }

    private static double delta(PrometheusScrape before, PrometheusScrape after, String name, String... labels) {
        return after.value(name, labels) - before.value(name, labels);
    }

    private static void assertFullHandshake(OpenSslClient.Result result) {
        assertTrue(result.fullHandshake(), result.output());
        assertEquals(200, result.httpStatus(), result.output());
    }
}
