package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.Promtool;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import io.tlsadmit.testing.PrometheusScrape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate in the real Tomcat on the JDK running the build (17), JSSE. One Tomcat for the class. */
class GateIT {

    private static TomcatServer tomcat;
    private static TestKeystore keystore;
    private static int gatePort;
    private static int otherPort;
    private static int ratedPort;
    private static int resetPort;
    private static int observePort;
    private static int bypassPort;
    private static GateMXBean gate;

    @TempDir
    Path sessions;

    @BeforeAll
    static void startTomcat() {
        TomcatDistribution distribution = GatedTomcat.distribution();
        keystore = GatedTomcat.keystore(distribution);
        tomcat = GatedTomcat.base(distribution, "gate")
                .connector(GatedTomcat.gated("gate", keystore, "1000", "1000"))
                // Another server as far as TLS goes: its own session cache and ticket keys.
                .connector(GatedTomcat.gated("other", keystore, "1000", "1000")
                        .nested("<UpgradeProtocol className=\"org.apache.coyote.http2.Http2Protocol\"/>"))
                // Exact rates: no grace for a just-admitted host's further connections here (that has its own test).
                .connector(GatedTomcat.gated("rated", keystore, "4", "2").attribute("connectionsPerNewUser", "1"))
                .connector(GatedTomcat.gated("reset", keystore, "0", "0").attribute("refuseAction", "reset"))
                .connector(GatedTomcat.gated("observe", keystore, "0", "0").attribute("mode", "observe"))
                .connector(GatedTomcat.gated("bypass", keystore, "0", "0").attribute("bypassAddresses", "127.0.0.5/32, 2001:db8::/32"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\" metricsAllow=\"127\\.0\\.0\\.1\"/>")
                .build()
                .start();
        gatePort = tomcat.port("gate");
        otherPort = tomcat.port("other");
        ratedPort = tomcat.port("rated");
        resetPort = tomcat.port("reset");
        observePort = tomcat.port("observe");
        bypassPort = tomcat.port("bypass");
        gate = GatedTomcat.gate(tomcat, gatePort);
    }

    /**
     * Tests share one gated connector: a test that failed with the budget at 0 or in debt must not
     * fail the next ones too (the metrics page is fetched over the same connector).
     */
    @AfterEach
    void openTheBudgetAgain() throws InterruptedException {
        budget(1000, 1000);
        Thread.sleep(50); // what a page owes is repaid at the new rate
    }

    @AfterAll
    static void stopTomcat() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    private void budget(double rate, long burst) {
        GatedTomcat.budget(gate, rate, burst);
    }

    private OpenSslClient client() {
        return OpenSslClient.to(gatePort, keystore);
    }

    private AdmissionScenarios scenarios() {
        return new AdmissionScenarios(gatePort, keystore, gate, sessions);
    }

    @Test
    void everyResumptionIsAdmittedAndEveryNewHandshakeRefusedWhenTheBudgetIsZero() throws Exception {
        scenarios().budgetZeroAdmitsEveryResumptionAndRefusesEveryNewHandshake(true);
    }

    @Test
    void sessionIdUnknownToThisServerIsRefusedBeforeTheHandshake() {
        Path foreign = sessions.resolve("foreign-id.pem");
        assertTrue(OpenSslClient.to(otherPort, keystore).tls12().noTicket().saveSession(foreign).run().fullHandshake());
        budget(0, 0);
        long lateBefore = gate.getLateRefusals();
        long refusedBefore = gate.getNewRefused();
        OpenSslClient.Result result = client().tls12().noTicket().resume(foreign).run();
        assertFalse(result.handshakeCompleted(), result.output());
        assertEquals(0, result.handshakeBytesRead(), "refused before the server sent anything");
        assertEquals(refusedBefore + 1, gate.getNewRefused(), "a cache miss is a new handshake, refused early");
        assertEquals(lateBefore, gate.getLateRefusals());
    }

    @Test
    void aSessionIdIsLookedUpOnAcceptWhereTheNativePeekRuns() {
        Path own = sessions.resolve("own-id.pem");
        Path foreign = sessions.resolve("foreign-id-on-accept.pem");
        budget(1000, 1000);
        assertTrue(client().tls12().noTicket().saveSession(own).run().fullHandshake());
        assertTrue(OpenSslClient.to(otherPort, keystore).tls12().noTicket().saveSession(foreign).run().fullHandshake());
        budget(0, 0);
        long onAccept = gate.getDecidedOnAccept();
        long resumptions = gate.getResumptionsAdmitted();
        long refused = gate.getNewRefused();
        OpenSslClient.Result resumed = client().tls12().noTicket().resume(own).run();
        assertTrue(resumed.reused(), "the cached session id resumes on an empty budget: " + resumed.output());
        OpenSslClient.Result missed = client().tls12().noTicket().resume(foreign).run();
        assertEquals(0, missed.handshakeBytesRead(), "refused before the server sent anything");
        assertEquals(resumptions + 1, gate.getResumptionsAdmitted());
        assertEquals(refused + 1, gate.getNewRefused());
        // The acceptor asks the session cache itself, so both are decided there (without the peek, by the channel).
        assertEquals(onAccept + (gate.isNativePeek() ? 2 : 0), gate.getDecidedOnAccept());
    }

    @Test
    void foreignTicketsAndPsksAreRefusedByTheLateGate() {
        scenarios().foreignTicketsAndPsksAreRefusedByTheLateGate(otherPort);
    }

    @Test
    void truthCountersFollowWhatTheClientSaw() throws Exception {
        budget(1000, 1000);
        long full = gate.getFullHandshakes();
        long resumed = gate.getResumedHandshakes();
        Path tls13 = sessions.resolve("truth-13.pem");
        Path tls12 = sessions.resolve("truth-12.pem");
        assertTrue(client().tls13().saveSession(tls13).run().fullHandshake());
        assertTrue(client().tls12().saveSession(tls12).run().fullHandshake());
        assertTrue(client().tls13().resume(tls13).run().reused());
        assertTrue(client().tls12().resume(tls12).run().reused());
        assertTrue(Files.size(tls13) > 0);
        assertEquals(full + 2, gate.getFullHandshakes());
        assertEquals(resumed + 2, gate.getResumedHandshakes());
    }


    @Test
    void newHandshakesAdmittedPerSecondStayWithinTheRatePlusBurst() throws Exception {
        GateMXBean rated = GatedTomcat.gate(tomcat, ratedPort);
        long admittedBefore = rated.getNewAdmitted();
        long refusedBefore = rated.getNewRefused();
        int completed = 0;
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < end) {
            // A fresh client context per connection: nothing to resume, every attempt is a new handshake.
            if (handshake(keystore.clientContext("TLSv1.3"), ratedPort)) {
                completed++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long admitted = rated.getNewAdmitted() - admittedBefore;
        long refused = rated.getNewRefused() - refusedBefore;
        assertEquals(completed, admitted, "every admitted connection completed its handshake");
        assertTrue(admitted <= Math.ceil(4 * seconds) + 2, admitted + " admitted in " + seconds + " s at 4/s, burst 2");
        assertTrue(refused > 0, "more offered than the rate: some must be refused");
    }

    @Test
    void aNewUsersParallelConnectionsAreAdmittedTogetherOnOneToken() throws Exception {
        budget(0.05, 1);
        Thread.sleep(50);
        long admitted = gate.getNewAdmitted();
        // A browser's first page: six connections at once, each a new full handshake, one token left.
        // From an address of its own: a host admitted by an earlier test less than the grace window ago
        // (127.0.0.1 is everyone's) still has a grace open, which the page's connections could take
        // before its token renews it, leaving room for a seventh.
        String browser = "127.0.0.9";
        java.util.List<java.util.concurrent.CompletableFuture<Boolean>> page = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            page.add(java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> handshake(keystore.clientContext("TLSv1.3"), browser, gatePort)));
        }
        for (java.util.concurrent.CompletableFuture<Boolean> connection : page) {
            assertTrue(connection.get(), "every connection of the page is admitted");
        }
        assertEquals(admitted + 6, gate.getNewAdmitted());
        assertFalse(handshake(keystore.clientContext("TLSv1.3"), browser, gatePort), "a seventh is more than a page");
        assertFalse(OpenSslClient.to(gatePort, keystore).option("-bind", "127.0.0.3:0").tls13().run().handshakeCompleted(),
                "another host meets the empty budget (in debt for the page)");
        budget(1000, 1000);
        Thread.sleep(50); // the page's debt repaid, so that curl's own handshake is admitted
        PrometheusScrape metrics = PrometheusScrape.parse(curl("127.0.0.1", "/tlsadmit/metrics"));
        assertTrue(metrics.value("tlsadmit_session_grace_total") >= 5, metrics.text());
    }

    @Test
    void observingRefusesNothingAndCountsWhatItWouldHaveRefused() throws Exception {
        GateMXBean observing = GatedTomcat.gate(tomcat, observePort);
        assertEquals("observe", observing.getMode());
        long would = observing.getWouldRefuse();
        OpenSslClient.Result fresh = OpenSslClient.to(observePort, keystore).tls13().run();
        assertTrue(fresh.fullHandshake(), "budget 0, yet served: " + fresh.output());
        assertEquals(200, fresh.httpStatus());
        assertEquals(would + 1, observing.getWouldRefuse());
        PrometheusScrape metrics = PrometheusScrape.parse(curl("127.0.0.1", "/tlsadmit/metrics"));
        assertTrue(metrics.value("tlsadmit_would_refuse_total", "verdict", "NEW") >= 1, metrics.text());
    }

    @Test
    void bypassAddressesAreAdmittedOnAnEmptyBudgetAndCountedApart() {
        GateMXBean bypass = GatedTomcat.gate(tomcat, bypassPort);
        long bypassed = bypass.getBypassed();
        OpenSslClient.Result probe = OpenSslClient.to(bypassPort, keystore).option("-bind", "127.0.0.5:0").tls13().run();
        assertTrue(probe.fullHandshake(), "from a bypass address: " + probe.output());
        assertEquals(bypassed + 1, bypass.getBypassed());
        OpenSslClient.Result other = OpenSslClient.to(bypassPort, keystore).option("-bind", "127.0.0.6:0").tls13().run();
        assertFalse(other.handshakeCompleted(), "anyone else meets the empty budget: " + other.output());
    }

    @Test
    void refuseActionResetAbortsTheConnection() throws InterruptedException {
        String messages = refusedHandshake(resetPort);
        assertTrue(messages.contains("Connection reset"), messages);
        // Refusing is logged once, when it starts (checked once a second), with the budget at that moment: this
        // connector's budget stays at 0 (the shared one's is reopened after each test, maybe before the check).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String line = null;
        while (line == null && System.nanoTime() < deadline) {
            line = tomcat.catalinaOut().lines().filter(l -> l.contains("-" + resetPort + " started refusing handshakes"))
                    .findFirst().orElse(null);
            Thread.sleep(100);
        }
        assertTrue(line != null && line.contains("budget static 0.0 new full handshakes/s"), tomcat.catalinaOut());
    }

    /** A JDK client's handshake with a connector that refuses it: the messages of the exception and its causes. */
    private String refusedHandshake(int port) {
        SSLContext context = keystore.clientContext("TLSv1.3");
        IOException refused = assertThrows(IOException.class, () -> {
            try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
                socket.setSoTimeout(5000);
                socket.startHandshake();
            }
        });
        StringBuilder messages = new StringBuilder();
        for (Throwable t = refused; t != null; t = t.getCause()) {
            messages.append(t).append('\n');
        }
        return messages.toString();
    }

    @Test
    void refuseActionCloseEndsTheConnectionInOrder() {
        budget(0, 0);
        String messages = refusedHandshake(gatePort);
        // The hello is dropped unread before the close (natively where the peek runs): unread, it would be a reset.
        assertTrue(messages.contains("Remote host terminated the handshake"), messages);
        assertFalse(messages.contains("Connection reset"), messages);
    }

    private static boolean handshake(SSLContext context, int port) {
        return handshake(context, "127.0.0.1", port);
    }

    private static boolean handshake(SSLContext context, String fromAddress, int port) {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.bind(new InetSocketAddress(fromAddress, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(5000);
            socket.startHandshake();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void nonTlsTruncatedMalformedAndSilentClientsAreClosedQuietly() throws Exception {
        budget(1000, 1000);
        long nonHandshakes = gate.getNonHandshakesRefused();
        long incomplete = gate.getIncompleteClosed();
        assertClosedAfterSending("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        // A handshake message of type 2 (ServerHello) where a ClientHello must be.
        assertClosedAfterSending(HexFormat.of().parseHex("1603010008020000040303abcd"));
        // A ClientHello cut short, then the client half-closes.
        assertClosedAfterSending(HexFormat.of().parseHex("16030100c8010000c40303"));
        // Nothing at all: closed by connectionTimeout (2 s).
        assertClosedAfterSending(new byte[0]);
        assertEquals(nonHandshakes + 2, gate.getNonHandshakesRefused());
        assertEquals(incomplete + 2, gate.getIncompleteClosed());
        String log = tomcat.catalinaOut();
        assertFalse(log.contains("Exception"), log);
        assertFalse(log.contains("SEVERE"), log);
    }

    @Test
    void aHelloThatArrivesInPiecesIsBufferedUntilItIsComplete() throws Exception {
        budget(1000, 1000);
        byte[] hello = Files.readAllBytes(Path.of(System.getProperty("tlsadmit.root"),
                "testdata/clienthello/chromium-server13-1-new.bin"));
        long admitted = gate.getNewAdmitted();
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress("127.0.0.1", gatePort), 2000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            for (int from = 0; from < hello.length; from += 700) {
                out.write(hello, from, Math.min(700, hello.length - from));
                out.flush();
                Thread.sleep(200);
            }
            byte[] record = socket.getInputStream().readNBytes(6);
            assertEquals("160303", HexFormat.of().formatHex(record, 0, 3), "a TLS handshake record comes back");
            assertEquals(2, record[5], "and it is the ServerHello");
        }
        assertEquals(admitted + 1, gate.getNewAdmitted());
    }

    @Test
    void aHelloInOneByteRecordsLargerThanTheChannelBufferIsStillClassified() throws Exception {
        budget(1000, 1000);
        byte[] record = Files.readAllBytes(Path.of(System.getProperty("tlsadmit.root"),
                "testdata/clienthello/chromium-server13-1-new.bin"));
        byte[] hello = withUnknownExtension(Arrays.copyOfRange(record, 5, record.length), 3000);
        // One record per byte: about 6 bytes on the wire per hello byte, far more than the channel's
        // initial 16 KiB network buffer, which has to grow while the hello is still INCOMPLETE.
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (byte b : hello) {
            wire.writeBytes(new byte[] {0x16, 0x03, 0x01, 0x00, 0x01, b});
        }
        assertTrue(wire.size() > 17_000, "bigger than the initial buffer: " + wire.size());
        long admitted = gate.getNewAdmitted();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", gatePort), 2000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(wire.toByteArray());
            socket.getOutputStream().flush();
            socket.getInputStream().read(); // whatever the engine makes of it, the gate has decided by then
        }
        assertEquals(admitted + 1, gate.getNewAdmitted(), "classified as NEW across all the records and admitted");
    }

    /** The handshake message with one more extension (type 0x4444, unassigned) of {@code size} zero bytes. */
    private static byte[] withUnknownExtension(byte[] handshake, int size) {
        ByteBuffer in = ByteBuffer.wrap(handshake);
        int p = 4 + 2 + 32;
        p += 1 + (in.get(p) & 0xff);
        p += 2 + (in.getShort(p) & 0xffff);
        p += 1 + (in.get(p) & 0xff);
        int extensionsAt = p;
        int grow = 4 + size;
        ByteBuffer out = ByteBuffer.allocate(handshake.length + grow);
        out.put(handshake, 0, extensionsAt);
        out.putShort((short) ((in.getShort(extensionsAt) & 0xffff) + grow));
        out.put(handshake, extensionsAt + 2, handshake.length - extensionsAt - 2);
        out.putShort((short) 0x4444).putShort((short) size).put(new byte[size]);
        int length = out.capacity() - 4;
        out.put(1, (byte) (length >> 16)).put(2, (byte) (length >> 8)).put(3, (byte) length);
        return out.array();
    }

    private static void assertClosedAfterSending(byte[] bytes) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", gatePort), 2000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            if (bytes.length > 0 && bytes[0] == 0x16) {
                socket.shutdownOutput();
            }
            InputStream in = socket.getInputStream();
            assertEquals(-1, in.read(), "the server closes without a response");
        }
    }

    @Test
    void requestsCarryTheVerdictAndTheTruthOfTheirConnection() throws Exception {
        budget(1000, 1000);
        HttpResponse<String> fresh = GatedTomcat.get(keystore, gatePort, "/attributes.jsp");
        assertEquals(200, fresh.statusCode());
        assertEquals("verdict=NEW\nhandshake=FULL\n", fresh.body().strip() + "\n");
        Path session = sessions.resolve("attributes.pem");
        assertTrue(client().tls13().saveSession(session).run().fullHandshake());
        OpenSslClient.Result resumed = client().tls13().resume(session).path("/attributes.jsp").run();
        assertTrue(resumed.output().contains("verdict=RESUME_PSK\nhandshake=RESUMED"), resumed.output());
    }

    @Test
    void http2RequestsOnAGatedConnectionCarryItsVerdictAndTruth() throws Exception {
        Process curl = new ProcessBuilder("curl", "-sS", "--http2", "--max-time", "10", "-w", "http=%{http_version}",
                "--cacert", keystore.certificatePem().toString(), "https://127.0.0.1:" + otherPort + "/attributes.jsp")
                .redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(curl.waitFor(20, TimeUnit.SECONDS));
        assertEquals("verdict=NEW\nhandshake=FULL\nhttp=2", out.strip(), out);
    }

    @Test
    void metricsAreServedToAllowedAddressesOnly() throws Exception {
        budget(1000, 1000);
        assertTrue(client().tls13().run().fullHandshake());
        String text = curl("127.0.0.1", "/tlsadmit/metrics");
        PrometheusScrape metrics = PrometheusScrape.parse(text);
        assertTrue(metrics.value("tlsadmit_connections_total", "verdict", "NEW", "decision", "admitted") >= 1, text);
        assertTrue(metrics.has("tlsadmit_handshakes_total"), text);
        assertTrue(metrics.value("tlsadmit_handshakes_total", "kind", "full", "version", "TLSv1.3") >= 1, text);
        assertTrue(metrics.has("tlsadmit_mispredictions_total"), text);
        assertTrue(metrics.has("tlsadmit_budget_tokens"), text);
        assertTrue(metrics.value("tlsadmit_classification_seconds_count") >= 1, text);
        Promtool.checkMetrics(text.substring(text.indexOf("\r\n\r\n") + 4)); // the body, after curl -i's headers

        // The valve allows 127.0.0.1 only; the same request from 127.0.0.2 reaches the webapp (404).
        String denied = curl("127.0.0.2", "/tlsadmit/metrics");
        assertFalse(denied.contains("tlsadmit_"), denied);
        assertTrue(denied.contains("404"), denied);
    }

    @Test
    void jmxShowsTheCountersAndChangesTheBudgetAtRuntime() throws Exception {
        // A build without a C compiler makes a jar without the library (native-peek/README.md): then the Java path.
        assertEquals(jarCarriesNativePeekForThisMachine(), gate.isNativePeek(),
                "native-peek loaded in Tomcat exactly when the jar carries the library for this machine");
        budget(7.5, 3);
        assertEquals(7.5, gate.getMaxFullHandshakesPerSecond());
        assertEquals(3, gate.getFullHandshakeBurst());
        assertEquals("static", gate.getBudget());
        long admitted = gate.getNewAdmitted();
        long full = gate.getFullHandshakes();
        long onAccept = gate.getDecidedOnAccept();
        assertTrue(client().tls12().run().fullHandshake());
        assertEquals(admitted + 1, gate.getNewAdmitted());
        assertEquals(full + 1, gate.getFullHandshakes());
        // With the native peek, TCP_DEFER_ACCEPT has the kernel hand the connection over with its hello: decided on
        // accept, every time; without it, never.
        assertEquals(onAccept + (gate.isNativePeek() ? 1 : 0), gate.getDecidedOnAccept());
        PrometheusScrape metrics = PrometheusScrape.parse(curl("127.0.0.1", "/tlsadmit/metrics"));
        assertEquals(gate.getDecidedOnAccept(), metrics.value("tlsadmit_decided_on_accept_total", "connector",
                gate.getConnector()), 1e-9, metrics.text());
        assertEquals(7.5, metrics.value("tlsadmit_budget_full_handshakes_per_second", "connector", gate.getConnector()),
                1e-9, metrics.text());
        assertEquals(4, metrics.value("tlsadmit_budget_full_handshakes_per_second", "connector",
                GatedTomcat.gate(tomcat, ratedPort).getConnector()), 1e-9, "each connector its own series");
        assertEquals(6, metrics.series("tlsadmit_budget_full_handshakes_per_second"), metrics.text());
    }

    @Test
    void everyMetricIsAlsoAnMBeanShowingWhatTheEndpointShows() throws Exception {
        budget(0, 0);
        assertFalse(client().tls13().run().handshakeCompleted(), "refused: counts NEW/refused");
        budget(100, 10);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (gate.getAvailableTokens() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(10); // the bucket refills from empty at 100/s
        }
        assertTrue(client().tls12().run().fullHandshake(), "admitted: counts a full TLS 1.2 handshake");
        PrometheusScrape metrics = PrometheusScrape.parse(curl("127.0.0.1", "/tlsadmit/metrics"));
        MBeanServerConnection jmx = tomcat.jmx();

        assertEquals(metrics.series("tlsadmit_connections_total"),
                jmx.queryNames(metric("tlsadmit.connections"), null).size(), "one MBean per label set");
        double refused = metrics.value("tlsadmit_connections_total", "connector", gate.getConnector(), "verdict", "NEW",
                "decision", "refused");
        assertTrue(refused >= 1, metrics.text());
        String connector = "connector=" + gate.getConnector();
        assertEquals(refused, attribute(jmx, metric("tlsadmit.connections", connector, "verdict=NEW,decision=refused"), "Count"));
        double fullTls12 = metrics.value("tlsadmit_handshakes_total", "connector", gate.getConnector(), "kind", "full",
                "version", "TLSv1.2");
        assertTrue(fullTls12 >= 1, metrics.text());
        assertEquals(fullTls12, attribute(jmx, metric("tlsadmit.handshakes", connector, "kind=full,version=TLSv1.2"), "Count"));
        assertEquals(metrics.value("tlsadmit_budget_full_handshakes_per_second", "connector", gate.getConnector()),
                attribute(jmx, metric("tlsadmit.budget.full.handshakes.per.second", connector), "Value"));
        ObjectName classification = metric("tlsadmit.classification", connector);
        assertEquals(metrics.value("tlsadmit_classification_seconds_count", "connector", gate.getConnector()),
                attribute(jmx, classification, "Count"));
        assertTrue(attribute(jmx, classification, "TotalTime") > 0, "seconds from accept to the decision");
    }

    private static ObjectName metric(String name, String... keys) throws MalformedObjectNameException {
        return new ObjectName(AdmissionNioProtocol.JMX_DOMAIN + ":type=Metric,name=" + name
                + (keys.length == 0 ? "" : "," + String.join(",", keys)) + ",*");
    }

    /** The attribute of the one MBean the pattern names. */
    private static double attribute(MBeanServerConnection jmx, ObjectName pattern, String attribute) throws Exception {
        Set<ObjectName> names = jmx.queryNames(pattern, null);
        assertEquals(1, names.size(), pattern + " names " + names);
        return (Double) jmx.getAttribute(names.iterator().next(), attribute);
    }

    /** curl from a chosen loopback source address; returns status line and body. */
    private static String curl(String fromAddress, String path) throws IOException, InterruptedException {
        Process curl = new ProcessBuilder("curl", "-sS", "-i", "--max-time", "10", "--interface", fromAddress,
                "--cacert", keystore.certificatePem().toString(), "https://127.0.0.1:" + gatePort + path)
                .redirectErrorStream(true).start();
        byte[] out = curl.getInputStream().readAllBytes();
        assertTrue(curl.waitFor(20, TimeUnit.SECONDS));
        return new String(out, StandardCharsets.UTF_8);
    }

    private static boolean jarCarriesNativePeekForThisMachine() throws java.io.IOException {
        String arch = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> System.getProperty("os.arch");
        };
        try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile(System.getProperty("tlsadmit.gate.jar"))) {
            return System.getProperty("os.name").equals("Linux")
                    && jar.getEntry("META-INF/native/linux-" + arch + "/libtlsadmit_peek.so") != null;
        }
    }
}
