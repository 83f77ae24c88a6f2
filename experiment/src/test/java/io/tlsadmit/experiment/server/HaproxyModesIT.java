package io.tlsadmit.experiment.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.FreePort;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each HAProxy mode's configuration, as the experiment writes it, run for a few seconds in front of the real Tomcat
 * with real clients (openssl s_client, curl): with the rate at 0 a new client is refused before any handshake
 * (the server sends it nothing), and only {@code haproxy-hello} lets a TLS 1.2 ticket resumption through; with a
 * generous rate everything passes and resumes. Also what {@code haproxy-hello} gets wrong (README.md): a TLS 1.2
 * session-id resumption and a TLS 1.3 PSK resumption look new to it.
 *
 * <p>A session taken from one HAProxy resumes at another because both load the same {@code tls-ticket-keys}:
 * tickets are the one resumption that crosses processes, and the rate-0 instance can issue none itself.
 */
class HaproxyModesIT {

    private static final String PAGE = "served by tomcat";
    private static final int GENEROUS = 1000;

    private static TomcatServer tomcat;
    private static TestKeystore keystore;
    private static Path pem;
    private static Path ticketKeys;

    private final List<Haproxy> running = new ArrayList<>();

    @TempDir
    Path sessions;

    @BeforeAll
    static void startTomcat(@TempDir Path files) throws IOException {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"));
        pem = Haproxy.certificateAndKey(files, keystore);
        ticketKeys = Haproxy.writeTicketKeys(files.resolve("tls-ticket-keys"));
        // the experiment's HAProxy modes talk to Tomcat's plain connector
        tomcat = TomcatServer.builder(distribution).name("haproxy-modes")
                .connector(ConnectorSpec.http("plain"))
                .file("webapps/ROOT/index.html", PAGE)
                .catalinaOpt("-Xmx128m")
                .build().start();
    }

    @AfterAll
    static void stopTomcat() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    @AfterEach
    void stopHaproxies() {
        running.forEach(Haproxy::close);
        running.clear();
    }

    @Test
    void rejectModeRefusesEveryConnectionOverTheRateBeforeTheHandshakeResumptionsToo() {
        Haproxy open = start(Mode.HAPROXY_REJECT, "1.3", GENEROUS);
        Path session = sessions.resolve("tls13.pem");
        OpenSslClient.Result first = client(open).tls13().saveSession(session).run();
        assertTrue(first.fullHandshake() && first.output().contains(PAGE), first.output());
        OpenSslClient.Result resumed = client(open).tls13().resume(session).run();
        assertTrue(resumed.reused() && resumed.output().contains(PAGE), resumed.output());
        assertEquals(PAGE, curl(open.port()));

        Haproxy closed = start(Mode.HAPROXY_REJECT, "1.3", 0);
        assertRefusedBeforeAnyHandshake(client(closed).tls13().run());
        // it cannot tell: the connection is refused as it is accepted, before the hello is even read
        assertRefusedBeforeAnyHandshake(client(closed).tls13().resume(session).run());
        assertEquals("", curl(closed.port()));
    }

    @Test
    void helloModeLetsTls12TicketResumptionsPastARateOfZero() {
        Haproxy open = start(Mode.HAPROXY_HELLO, "1.2", GENEROUS);
        Path ticket = sessions.resolve("ticket.pem");
        Path sessionId = sessions.resolve("session-id.pem");
        OpenSslClient.Result withTicket = client(open).tls12().saveSession(ticket).run();
        assertTrue(withTicket.fullHandshake() && withTicket.output().contains(PAGE), withTicket.output());
        OpenSslClient.Result withId = client(open).tls12().noTicket().saveSession(sessionId).run();
        assertTrue(withId.fullHandshake() && withId.output().contains(PAGE), withId.output());
        OpenSslClient.Result byTicket = client(open).tls12().resume(ticket).run();
        assertTrue(byTicket.reused() && byTicket.output().contains(PAGE), byTicket.output());
        OpenSslClient.Result byId = client(open).tls12().noTicket().resume(sessionId).run();
        assertTrue(byId.reused() && byId.output().contains(PAGE), "generous: the id resumes\n" + byId.output());

        Haproxy closed = start(Mode.HAPROXY_HELLO, "1.2", 0);
        assertRefusedBeforeAnyHandshake(client(closed).tls12().run());
        assertRefusedBeforeAnyHandshake(client(closed).tls12().noTicket().run());
        OpenSslClient.Result resumed = client(closed).tls12().resume(ticket).run();
        assertTrue(resumed.reused() && resumed.output().contains(PAGE), resumed.output());
        // what it gets wrong: a session id is no sign of a resumption to it (TLS 1.3-capable clients send a random
        // one in every hello), so a TLS 1.2 client resuming by id is refused as new
        assertRefusedBeforeAnyHandshake(client(closed).tls12().noTicket().resume(sessionId).run());
    }

    @Test
    void helloModeTakesTls13PskResumptionsForNewClients() {
        Haproxy open = start(Mode.HAPROXY_HELLO, "1.3", GENEROUS);
        Path psk = sessions.resolve("psk.pem");
        OpenSslClient.Result first = client(open).saveSession(psk).run();
        assertTrue(first.fullHandshake() && "TLSv1.3".equals(first.protocol()), first.output());
        OpenSslClient.Result resumed = client(open).resume(psk).run();
        assertTrue(resumed.reused() && resumed.output().contains(PAGE), resumed.output());
        assertEquals(PAGE, curl(open.port()));

        Haproxy closed = start(Mode.HAPROXY_HELLO, "1.3", 0);
        assertRefusedBeforeAnyHandshake(client(closed).run());
        assertEquals("", curl(closed.port()));
        // the ticket travels in pre_shared_key, which no HAProxy fetch reads; OpenSSL's SessionTicket extension
        // beside it is empty (req.ssl_st_ext 1), so the resumption is refused as new
        assertRefusedBeforeAnyHandshake(client(closed).resume(psk).run());
    }

    @Test
    void maxsslrateModeServesAndResumes() {
        Haproxy haproxy = start(Mode.HAPROXY, "1.2", GENEROUS);
        Path session = sessions.resolve("tls12.pem");
        OpenSslClient.Result first = client(haproxy).tls12().saveSession(session).run();
        assertTrue(first.fullHandshake() && first.output().contains(PAGE), first.output());
        OpenSslClient.Result resumed = client(haproxy).tls12().resume(session).run();
        assertTrue(resumed.reused() && resumed.output().contains(PAGE), resumed.output());
    }

    private static void assertRefusedBeforeAnyHandshake(OpenSslClient.Result result) {
        assertEquals(0, result.handshakeBytesRead(), "the server sent nothing:\n" + result.output());
        assertFalse(result.output().contains(PAGE), result.output());
    }

    private Haproxy start(Mode mode, String tls, int rate) {
        int port = FreePort.pick();
        Haproxy haproxy = Haproxy.start(sessions.resolve(mode.label() + "-" + port), new Haproxy.Config(mode, pem,
                ticketKeys, tls, port, tomcat.port("plain"), rate, 1000, 1));
        running.add(haproxy);
        return haproxy;
    }

    private static OpenSslClient client(Haproxy haproxy) {
        return OpenSslClient.to(haproxy.port(), keystore);
    }

    /** The page curl got, empty if it got none. */
    private static String curl(int port) {
        try {
            Process curl = new ProcessBuilder("curl", "-s", "--max-time", "10", "--cacert",
                    keystore.certificatePem().toString(), "--resolve", "localhost:" + port + ":127.0.0.1",
                    "https://localhost:" + port + "/").redirectErrorStream(true).start();
            String body = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(curl.waitFor(20, TimeUnit.SECONDS), "curl did not finish");
            return curl.exitValue() == 0 ? body : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
