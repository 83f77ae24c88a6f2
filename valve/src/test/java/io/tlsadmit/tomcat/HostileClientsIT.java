package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile client can make a gated Tomcat spend, with real clients: TLS 1.2 renegotiation on an
 * admitted connection, floods of resumption offers the server cannot resume, connections that never
 * finish their hello, fragmented hellos, and a forwarded address claiming to be the metrics reader.
 */
class HostileClientsIT {

    private static TomcatServer tomcat;
    private static TestKeystore keystore;
    private static int gatePort;
    private static int chargePort;
    private static int slowPort;
    private static int otherPort;
    private static GateMXBean gate;
    private static GateMXBean charge;
    private static GateMXBean slow;

    private static final String CLIENT_CERT_WEB_XML = """
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
              <security-constraint>
                <web-resource-collection><web-resource-name>all</web-resource-name><url-pattern>/*</url-pattern></web-resource-collection>
                <auth-constraint><role-name>*</role-name></auth-constraint>
              </security-constraint>
              <login-config><auth-method>CLIENT-CERT</auth-method></login-config>
              <security-role><role-name>*</role-name></security-role>
            </web-app>
            """;

    @TempDir
    Path sessions;

    @BeforeAll
    static void startTomcat() {
        TomcatDistribution distribution = GatedTomcat.distribution();
        keystore = GatedTomcat.keystore(distribution);
        tomcat = GatedTomcat.base(distribution, "hostile")
                .connector(GatedTomcat.gated("gate", keystore, "1000", "1000"))
                .connector(GatedTomcat.gated("charge", keystore, "1000", "1000").attribute("clientRenegotiation", "charge"))
                .connector(GatedTomcat.gated("slow", keystore, "1000", "1000")
                        .attribute("helloTimeout", "1500")
                        .attribute("maxPendingHellos", "4")
                        .attribute("maxPendingHellosPerSource", "2"))
                .connector(GatedTomcat.gated("other", keystore, "1000", "1000"))
                // A proxy at 127.0.0.2 is trusted to say who the client is; the metrics must not believe it.
                .engineXml("<Valve className=\"org.apache.catalina.valves.RemoteIpValve\" internalProxies=\"127\\.0\\.0\\.2\"/>")
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\" metricsAllow=\"127.0.0.1/32\"/>")
                // CLIENT-CERT on /secure: Tomcat asks for the certificate by renegotiating (TLS 1.2) after the hello.
                .engineXml("<Realm className=\"org.apache.catalina.realm.NullRealm\"/>")
                .file("webapps/secure/index.html", "secure\n")
                .file("webapps/secure/WEB-INF/web.xml", CLIENT_CERT_WEB_XML)
                .build()
                .start();
        gatePort = tomcat.port("gate");
        chargePort = tomcat.port("charge");
        slowPort = tomcat.port("slow");
        otherPort = tomcat.port("other");
        gate = GatedTomcat.gate(tomcat, gatePort);
        charge = GatedTomcat.gate(tomcat, chargePort);
        slow = GatedTomcat.gate(tomcat, slowPort);
    }

    @AfterAll
    static void stopTomcat() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    private static void budget(GateMXBean mbean, double rate, long burst) {
        GatedTomcat.budget(mbean, rate, burst);
    }

    @Test
    void aClientsRenegotiationIsRefusedBeforeTheEngineReadsIt() {
        budget(gate, 1000, 1000);
        Path session = sessions.resolve("reneg.pem");
        assertTrue(OpenSslClient.to(gatePort, keystore).tls12().saveSession(session).run().fullHandshake());
        budget(gate, 0, 0);
        long full = gate.getFullHandshakes();
        long refused = gate.getClientRenegotiationsRefused();
        OpenSslClient.Result result = OpenSslClient.to(gatePort, keystore).tls12().resume(session).renegotiate().run();
        assertTrue(result.output().contains("\nReused, TLSv1.2"), "the resumption itself is admitted on the spent budget: "
                + result.output());
        assertTrue(result.output().contains("RENEGOTIATING"), result.output());
        assertFalse(result.renegotiated(), "the renegotiation must not complete: " + result.output());
        assertEquals(-1, result.httpStatus(), "the connection was closed, nothing served after it");
        assertEquals(refused + 1, gate.getClientRenegotiationsRefused());
        assertEquals(full, gate.getFullHandshakes(), "no full handshake was done for it");
        assertFalse(tomcat.catalinaOut().contains("Exception"), "refused without a stack trace");
    }

    @Test
    void anAllowedRenegotiationIsChargedToTheBudgetAndCounted() {
        budget(charge, 1000, 1000);
        Path session = sessions.resolve("charged.pem");
        assertTrue(OpenSslClient.to(chargePort, keystore).tls12().saveSession(session).run().fullHandshake());

        budget(charge, 0, 0);
        long full = charge.getFullHandshakes();
        long late = charge.getLateRefusals();
        OpenSslClient.Result refused = OpenSslClient.to(chargePort, keystore).tls12().resume(session).renegotiate().run();
        assertTrue(refused.output().contains("\nReused, TLSv1.2"), refused.output());
        assertFalse(refused.renegotiated(), "no token for the renegotiation's full handshake: " + refused.output());
        assertEquals(late + 1, charge.getLateRefusals(), "refused when the engine asked for the certificate");
        assertEquals(full, charge.getFullHandshakes());

        budget(charge, 1000, 1000);
        OpenSslClient.Result allowed = OpenSslClient.to(chargePort, keystore).tls12().resume(session).renegotiate().run();
        assertTrue(allowed.output().contains("RENEGOTIATING"), allowed.output());
        // Tomcat's NIO channel never sends the server's flight of a client's renegotiation from a read (stock
        // Tomcat 11.0.25 closes such a connection the same way), but the engine has done the work by then.
        assertEquals(full + 1, charge.getFullHandshakes(), "the renegotiation's full handshake is counted");
        assertEquals(late + 1, charge.getLateRefusals(), "and it was paid for, not refused");
    }

    @Test
    void tomcatsOwnRenegotiationForAClientCertificateIsChargedToTheBudget() {
        budget(charge, 1000, 1000);
        Path session = sessions.resolve("client-cert.pem");
        assertTrue(OpenSslClient.to(chargePort, keystore).tls12().saveSession(session).run().fullHandshake());
        long full = charge.getFullHandshakes();
        long late = charge.getLateRefusals();
        PrometheusScrape before = scrape();
        OpenSslClient.Result paid = OpenSslClient.to(chargePort, keystore).tls12().resume(session).path("/secure/").run();
        assertEquals(full + 1, charge.getFullHandshakes(), "the server's renegotiation is a full handshake: " + paid.output());

        budget(charge, 0, 0);
        OpenSslClient.Result unpaid = OpenSslClient.to(chargePort, keystore).tls12().resume(session).path("/secure/").run();
        assertTrue(unpaid.output().contains("\nReused, TLSv1.2"), unpaid.output());
        assertEquals(full + 1, charge.getFullHandshakes(), "no token: no second one");
        assertEquals(late + 1, charge.getLateRefusals(), "refused at the certificate: " + unpaid.output());
        assertEquals(2, scrape().value("tlsadmit_renegotiations_total", "initiator", "server", "decision", "admitted")
                - before.value("tlsadmit_renegotiations_total", "initiator", "server", "decision", "admitted"));
    }

    @Test
    void aFloodOfFalseOffersKeepsTheCountersConsistentAndFailsEarlyOnAnEmptyBudget() {
        Path psk = sessions.resolve("foreign-13.pem");
        Path ticket = sessions.resolve("foreign-12.pem");
        assertTrue(OpenSslClient.to(otherPort, keystore).tls13().saveSession(psk).run().fullHandshake());
        assertTrue(OpenSslClient.to(otherPort, keystore).tls12().saveSession(ticket).run().fullHandshake());
        budget(gate, 2, 2);
        sleepSeconds(1.1); // a full bucket of two tokens
        long full = gate.getFullHandshakes();
        long late = gate.getLateRefusals();
        int offers = 0;
        int fullHandshakesSeen = 0;
        // From 127.0.0.9 so that the distrust this earns does not follow the other tests' clients (127.0.0.1).
        for (int i = 0; i < 8; i++) {
            for (Path foreign : List.of(psk, ticket)) {
                OpenSslClient client = OpenSslClient.to(gatePort, keystore).option("-bind", "127.0.0.9:0").resume(foreign);
                OpenSslClient.Result result = (foreign == psk ? client.tls13() : client.tls12()).run();
                offers++;
                if (result.fullHandshake()) {
                    fullHandshakesSeen++;
                }
            }
        }
        assertTrue(fullHandshakesSeen <= 2 + 1, "at most the bucket (and what refilled meanwhile): " + fullHandshakesSeen);
        assertEquals(fullHandshakesSeen, gate.getFullHandshakes() - full, "every certificate the clients got is counted");
        assertEquals(offers - fullHandshakesSeen, gate.getLateRefusals() - late, "every other offer was refused late");
        PrometheusScrape metrics = scrape();
        assertTrue(metrics.value("tlsadmit_late_refusals_total", "stage", "new_session") > 0,
                "with the budget spent or the source distrusted, offers failed before the key exchange: " + metrics.text());
        assertTrue(metrics.value("tlsadmit_distrusted_sources") >= 1, metrics.text());
        assertTrue(metrics.value("tlsadmit_distrusted_offers_total") >= 1, metrics.text());
    }

    @Test
    void aForgedResumptionInOneByteRecordsLeavesNoLogLine() throws Exception {
        budget(gate, 0, 0);
        byte[] record = Files.readAllBytes(Path.of(System.getProperty("tlsadmit.root"),
                "testdata/clienthello/curl-server13-2-resumed.bin"));
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int i = 5; i < record.length; i++) {
            wire.writeBytes(new byte[] {0x16, 0x03, 0x01, 0x00, 0x01, record[i]});
        }
        long admitted = gate.getResumptionsAdmitted();
        int logLines = tomcat.catalinaOut().split("\n").length;
        for (int i = 0; i < 20; i++) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", gatePort), 2000);
                socket.setSoTimeout(5000);
                socket.getOutputStream().write(wire.toByteArray());
                drain(socket.getInputStream());
            }
        }
        assertEquals(admitted + 20, gate.getResumptionsAdmitted(), "taken for resumptions, as any offer is");
        Thread.sleep(2_500); // the once-a-second check that logs the start of a refusal episode
        String[] lines = tomcat.catalinaOut().split("\n");
        List<String> added = List.of(lines).subList(Math.min(logLines, lines.length), lines.length);
        List<String> episodes = added.stream().filter(l -> l.contains("refusing handshakes")).toList();
        assertTrue(added.stream().filter(l -> !episodes.contains(l))
                        .noneMatch(l -> l.contains("WARNING") || l.contains("SEVERE") || l.contains("INFO")),
                "no log line per hostile connection: " + added);
        assertTrue(episodes.size() <= 1, "at most one line for the episode: " + episodes);
    }

    @Test
    void connectionsThatNeverSendTheirHelloAreLimitedPerSourceInAllAndInTimeOldestFirst() throws Exception {
        long closedBefore = slow.getSlowHellosClosed();
        List<Socket> silent = new ArrayList<>();
        try {
            // The first five send a hello's first byte and stop: Tomcat accepts them at once, in the order they came.
            // The sixth sends nothing: the kernel holds it for a second (TCP_DEFER_ACCEPT, set with the native peek)
            // before Tomcat sees it, and from then on helloTimeout runs.
            silent.add(stalledFrom("127.0.0.21"));
            silent.add(stalledFrom("127.0.0.22"));
            waitFor(() -> slow.getHellosPending() == 2, "two pending");
            silent.add(stalledFrom("127.0.0.23"));
            assertEquals(-1, readOrEnd(silent.get(0), 2000), "a third from the same /24: its oldest is closed");
            assertEquals(0, readOrEnd(silent.get(1), 200), "the others of that /24 stay");

            silent.add(stalledFrom("127.0.1.1"));
            silent.add(stalledFrom("127.0.2.1"));
            waitFor(() -> slow.getHellosPending() == 4, "four pending");
            long connected = System.nanoTime();
            silent.add(silentFrom("127.0.3.1"));
            assertEquals(-1, readOrEnd(silent.get(1), 3000), "over maxPendingHellos the oldest of all is closed");
            double held = (System.nanoTime() - connected) / 1e9;
            assertTrue(held > 0.5, "a silent connection reaches Tomcat only after the kernel held it: " + held + " s");
            waitFor(() -> slow.getHellosPending() == 4, "four pending again");

            Path session = sessions.resolve("slow.pem");
            assertTrue(OpenSslClient.to(slowPort, keystore).tls13().saveSession(session).run().fullHandshake());
            assertTrue(OpenSslClient.to(slowPort, keystore).tls13().resume(session).run().reused(),
                    "a client that sends its hello is served meanwhile");

            long start = System.nanoTime();
            assertEquals(-1, readOrEnd(silent.get(5), 5000), "closed by helloTimeout (1.5 s)");
            double waited = (System.nanoTime() - start) / 1e9;
            assertTrue(waited < 4, "not by connectionTimeout: " + waited + " s");
        } finally {
            for (Socket socket : silent) {
                socket.close();
            }
        }
        waitFor(() -> slow.getHellosPending() == 0, "none left pending");
        PrometheusScrape metrics = scrape();
        for (String reason : List.of("source_limit", "evicted", "timeout")) {
            assertTrue(metrics.value("tlsadmit_slow_hellos_closed_total", "reason", reason) >= 1, reason + ": " + metrics.text());
        }
        assertTrue(slow.getSlowHellosClosed() >= closedBefore + 3);
    }

    @Test
    void metricsAreForThePeerAddressNotForAForwardedOne() throws Exception {
        assertTrue(curl("127.0.0.1", "/tlsadmit/metrics").contains("tlsadmit_connections_total"));
        String forged = curl("127.0.0.2", "/tlsadmit/metrics", "-H", "X-Forwarded-For: 127.0.0.1");
        assertFalse(forged.contains("tlsadmit_"), "a trusted proxy's forwarded address is not the reader: " + forged);
        assertTrue(forged.contains("404"), forged);
    }

    private static Socket silentFrom(String address) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
        socket.connect(new InetSocketAddress("127.0.0.1", slowPort), 2000);
        return socket;
    }

    /** A connection that sends the first byte of a TLS record (a handshake's type) and nothing more. */
    private static Socket stalledFrom(String address) throws IOException {
        Socket socket = silentFrom(address);
        socket.getOutputStream().write(0x16);
        socket.getOutputStream().flush();
        return socket;
    }

    /** -1 when the server closes (or resets) within the time, 0 when it stays open, else the byte read. */
    private static int readOrEnd(Socket socket, int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            return socket.getInputStream().read();
        } catch (java.net.SocketTimeoutException e) {
            return 0;
        } catch (SocketException e) {
            return -1; // reset
        }
    }

    private static void drain(InputStream in) {
        try {
            in.readAllBytes();
        } catch (IOException e) {
            // reset or timeout: closed either way
        }
    }

    private static PrometheusScrape scrape() {
        try {
            return PrometheusScrape.parse(curl("127.0.0.1", "/tlsadmit/metrics"));
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String curl(String fromAddress, String path, String... more) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "-i", "--max-time", "10", "--interface", fromAddress,
                "--cacert", keystore.certificatePem().toString()));
        command.addAll(List.of(more));
        command.add("https://127.0.0.1:" + otherPort + path); // the connector whose budget no test spends
        Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = curl.getInputStream().readAllBytes();
        assertTrue(curl.waitFor(20, TimeUnit.SECONDS));
        return new String(out, StandardCharsets.UTF_8);
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 5 s: " + what);
            }
            Thread.sleep(20);
        }
    }

    private static void sleepSeconds(double seconds) {
        try {
            Thread.sleep((long) (seconds * 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
