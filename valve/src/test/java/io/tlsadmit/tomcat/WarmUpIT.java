package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import io.tlsadmit.testing.TomcatStartException;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The connector runs full TLS handshakes in memory before it accepts (`warmUpHandshakes`), so a fresh instance's
 * first clients do not pay for the JIT; the warm-up shows in the log and nowhere in the gate's counters or budget.
 * With `warmUpRequests` it also requests the application's pages over its own port before the server reports
 * itself started, closing everybody else meanwhile.
 */
class WarmUpIT {

    /** catalina.out's time stamps, e.g. {@code 27-Nov-2026 15:48:23.519} (Tomcat runs with an English locale). */
    private static final DateTimeFormatter CATALINA_TIME = DateTimeFormatter.ofPattern("dd-MMM-yyyy HH:mm:ss.SSS",
            Locale.ENGLISH);

    private final TomcatDistribution distribution = GatedTomcat.distribution();
    private final TestKeystore keystore = GatedTomcat.keystore(distribution);

    @Test
    void theHandshakeIsWarmedUpAtStartAndTheWarmUpCountsNowhere() {
        try (TomcatServer tomcat = GatedTomcat.base(distribution, "warm-up")
                .connector(GatedTomcat.gated("warm", keystore, "1", "1"))
                .connector(GatedTomcat.gated("cold", keystore, "1", "1").attribute("warmUpHandshakes", "0"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>")
                .build()
                .start()) {
            int warm = tomcat.port("warm");
            String log = tomcat.catalinaOut();
            assertTrue(log.lines().anyMatch(l -> l.contains("TLS warm-up on") && l.contains("-" + warm + " (RSA certificate): 64 full handshakes")), log);
            assertFalse(log.lines().anyMatch(l -> l.contains("TLS warm-up on") && l.contains("-" + tomcat.port("cold") + " ")), log);
            assertFalse(log.contains("warm-up stopped"), log);

            GateMXBean gate = GatedTomcat.gate(tomcat, warm);
            assertEquals(0, gate.getFullHandshakes(), "the warm-up is not a client");
            assertEquals(0, gate.getNewAdmitted());
            assertEquals(0, gate.getLateRefusals());
            // The budget (1 token) is untouched: the first real client gets it.
            assertTrue(OpenSslClient.to(warm, keystore).run().fullHandshake());
            assertEquals(1, gate.getFullHandshakes());
        }
    }

    @Test
    void theApplicationIsRequestedOverItsOwnPortBeforeTheServerReportsStartedAndNobodyElseIsServedMeanwhile()
            throws Exception {
        TomcatServer tomcat = GatedTomcat.base(distribution, "request-warm-up")
                .file("webapps/ROOT/page.txt", "page\n")
                .connector(GatedTomcat.gated("gate", keystore, "1", "1")
                        .attribute("warmUpRequests", "/page.txt, /index.html,/missing.txt")
                        .attribute("warmUpSeconds", "3"))
                // the probes' plain port, declared after the gated one (docs/deploy.md): Tomcat starts it after
                .connector(ConnectorSpec.http("probes"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>\n"
                        + "<Valve className=\"org.apache.catalina.valves.AccessLogValve\" directory=\"logs\" prefix=\"access\""
                        + " suffix=\".log\" rotatable=\"false\" buffered=\"false\" pattern=\"%r %s\""
                        + " conditionUnless=\"" + TlsAdmissionValve.WARM_UP_ATTRIBUTE + "\"/>")
                .build();
        int port = tomcat.port("gate");
        int probes = tomcat.port("probes");
        AtomicLong firstProbeAnswered = new AtomicLong(Long.MAX_VALUE);
        // a load balancer's health check knocking while the server starts
        AtomicBoolean started = new AtomicBoolean();
        Thread knocking = new Thread(() -> {
            while (!started.get()) {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                    socket.setSoTimeout(2000);
                    // plain HTTP: after the warm-up the gate refuses it as no handshake, leaving the budget alone
                    socket.getOutputStream().write("HEAD /health HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    socket.getInputStream().read();
                } catch (IOException e) {
                    // not bound yet, or closed: either way not served
                }
                if (firstProbeAnswered.get() == Long.MAX_VALUE && readinessProbe(probes)) {
                    firstProbeAnswered.set(System.currentTimeMillis());
                }
                LockSupport.parkNanos(50_000_000L);
            }
        }, "knocking");
        knocking.start();
        try (tomcat) {
            tomcat.start();
            started.set(true);
            knocking.join();
            if (firstProbeAnswered.get() == Long.MAX_VALUE) {
                assertTrue(readinessProbe(probes), "the plain port answers once the server has started");
                firstProbeAnswered.set(System.currentTimeMillis());
            }
            String log = tomcat.catalinaOut();
            List<String> lines = log.lines().toList();
            int done = indexOf(lines, " done: ");
            int reported = indexOf(lines, "Server startup in");
            assertTrue(done >= 0 && done < reported, "the warm-up ends before the server reports started:\n" + log);
            String result = lines.stream().filter(l -> l.contains("application warm-up on") && l.contains(" done: "))
                    .findFirst().orElseThrow(() -> new AssertionError(log));
            Matcher counts = Pattern.compile(" done: (\\d+) requests \\(2xx (\\d+), 4xx (\\d+)\\) on (\\d+) connections.*; (\\d+)"
                    + " other connections closed meanwhile").matcher(result);
            assertTrue(counts.find(), result);
            long twoXx = Long.parseLong(counts.group(2));
            long fourXx = Long.parseLong(counts.group(3));
            assertTrue(twoXx > 0 && fourXx > 0 && twoXx > fourXx, "two of three pages exist: " + result);
            assertTrue(Long.parseLong(counts.group(4)) > 1, "clients reconnect: " + result);
            assertTrue(Long.parseLong(counts.group(5)) > 0, "the knocking was closed while warming up: " + result);
            assertTrue(log.lines().anyMatch(l -> l.contains("no 2xx or 3xx answer for [/missing.txt]")), log);
            long warm = LocalDateTime.parse(result.substring(0, 24), CATALINA_TIME).atZone(ZoneId.systemDefault())
                    .toInstant().toEpochMilli();
            assertTrue(firstProbeAnswered.get() >= warm, "a readiness probe on the plain port declared after the gated"
                    + " one first got an answer at " + Instant.ofEpochMilli(firstProbeAnswered.get()) + ", the warm-up"
                    + " ended at " + Instant.ofEpochMilli(warm));

            GateMXBean gate = GatedTomcat.gate(tomcat, port);
            assertTrue(gate.getBypassed() >= Long.parseLong(counts.group(4)), "the warm-up is not a client");
            assertEquals(0, gate.getNewAdmitted());
            assertEquals(0, gate.getNewRefused(), "the knocking was closed before the gate, not refused by it");
            // The budget (1 token) is untouched: the first real client gets it, and the server now serves.
            assertTrue(OpenSslClient.to(port, keystore).run().fullHandshake());
            assertEquals("page\n", GatedTomcat.get(keystore, port, "/page.txt").body());
            // The warm-up's thousands of requests are marked, and an access log can leave them out. The log holds the
            // probes' and this test's requests for /page.txt; /index.html and /missing.txt only the warm-up asked for.
            List<String> accessLog = Files.readAllLines(tomcat.base().resolve("logs/access.log"));
            assertTrue(accessLog.contains("GET /page.txt HTTP/1.1 200"), accessLog::toString);
            assertTrue(accessLog.stream().noneMatch(l -> l.contains("/index.html") || l.contains("/missing.txt")),
                    accessLog::toString);
        } finally {
            started.set(true);
        }
    }

    /** A kubelet's HTTP probe: a GET with a short timeout, answered 200 or not. */
    private static boolean readinessProbe(int port) {
        try {
            HttpURLConnection probe = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/page.txt").toURL()
                    .openConnection();
            probe.setConnectTimeout(500);
            probe.setReadTimeout(500);
            try {
                return probe.getResponseCode() == 200;
            } finally {
                probe.disconnect();
            }
        } catch (IOException e) {
            return false;
        }
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "warmUpHandshakes | lots | warmUpHandshakes must be a whole number of handshakes in [0, 10000] (0 = no"
                    + " warm-up), was \"lots\"",
            "warmUpRequests | '/ok, index.html' | warmUpRequests must be a comma-separated list of paths, each starting"
                    + " with / in visible ASCII (percent-encode the rest), was \"/ok, index.html\"",
            "warmUpSeconds | 0 | warmUpSeconds must be a whole number of seconds in [1, 600], was \"0\""})
    void aWarmUpSettingThatCannotBeMetFailsTheStartNamingTheAttribute(String attribute, String value, String message) {
        TomcatStartException e = GatedTomcat.failedStart(GatedTomcat.base(distribution, "bad-warm-up")
                .connector(GatedTomcat.gated("gate", keystore, "10", "20").attribute(attribute, value))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>"));
        assertTrue(e.catalinaOut().contains(message), e.getMessage());
    }
}
