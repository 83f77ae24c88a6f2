package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An operator stops, starts, pauses and resumes connectors through Tomcat's own {@code Connector} MBean (the
 * manager app, a deployment script, a graceful shutdown all do): the gated connector behaves there as Tomcat's own
 * does, which serves beside it in the same server as the reference. The gated connector's listening socket hands
 * a connection over only once it has bytes ({@code TCP_DEFER_ACCEPT}), so Tomcat's way of waking its acceptor (an
 * empty connection) would not reach it: the acceptor stayed blocked, "did not stop cleanly", and after a restart
 * or a resume took the next client's connection only to close it. An application warm-up runs at the first start
 * only. A certificate rotated in place ({@code reloadSslHostConfigs}, as after a renewal) is served, still gated.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectorLifecycleIT {

    private final TomcatDistribution distribution = GatedTomcat.distribution();
    private final TestKeystore keystore = GatedTomcat.keystore(distribution);
    private TomcatServer tomcat;
    /** The rotating connector's certificate at start, and the one that replaces it in its keystore file. */
    private TestKeystore before;
    private TestKeystore after;
    @TempDir
    Path sessions;

    @BeforeAll
    void start() {
        before = GatedTomcat.freshKeystore(distribution); // the rotation overwrites its file
        after = GatedTomcat.freshKeystore(distribution);
        tomcat = GatedTomcat.base(distribution, "connector-lifecycle")
                .connector(ConnectorSpec.https("stock", keystore).sslHostConfig("protocols", "TLSv1.2+TLSv1.3"))
                .connector(GatedTomcat.gated("gated", keystore, "1000", "1000")
                        .attribute("warmUpRequests", "/index.html")
                        .attribute("warmUpSeconds", "1"))
                // closes its listening socket on stop and opens a new one on start (Tomcat's default keeps it)
                .connector(GatedTomcat.gated("rebinding", keystore, "1000", "1000").attribute("bindOnInit", "false"))
                .connector(GatedTomcat.gated("rotating", before, "1000", "1000"))
                .build()
                .start();
    }

    @AfterAll
    void stop() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"stock", "gated", "rebinding"})
    void aConnectorStoppedAndStartedThroughJmxServesEveryClientAgain(String connector) throws Exception {
        int port = tomcat.port(connector);
        assertServes(port);
        int before = acceptorWarnings();
        MBeanServerConnection jmx = tomcat.jmx();
        ObjectName mbean = GatedTomcat.tomcatMBean(tomcat, "Connector", port);
        jmx.invoke(mbean, "stop", new Object[0], new String[0]);
        jmx.invoke(mbean, "start", new Object[0], new String[0]);
        // bound again on start when bindOnInit is false: on a new port, since the configured one is 0
        int restarted = (Integer) jmx.getAttribute(mbean, "localPort");
        for (int i = 0; i < 3; i++) {
            assertServes(restarted);
        }
        assertEquals(before, acceptorWarnings(), tomcat.tail());
    }

    @ParameterizedTest
    @ValueSource(strings = {"stock", "gated"})
    void aClientArrivingWhileTheConnectorIsPausedIsServedOnceItResumes(String connector) throws Exception {
        int port = tomcat.port(connector);
        assertServes(port);
        int before = acceptorWarnings();
        invoke(port, "pause");
        try {
            CompletableFuture<HttpResponse<String>> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return GatedTomcat.get(keystore, port, "/index.html");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(500); // the client has connected and sent its hello; the kernel holds it in the backlog
            assertFalse(waiting.isDone(), "a paused connector answered");
            invoke(port, "resume");
            HttpResponse<String> response = waiting.get(15, TimeUnit.SECONDS);
            assertEquals(200, response.statusCode());
        } finally {
            invoke(port, "resume");
        }
        assertServes(port);
        assertEquals(before, acceptorWarnings(), tomcat.tail());
    }

    @Test
    void theApplicationWarmUpRunsAtTheFirstStartOnlyNotAtARestart() throws Exception {
        int port = tomcat.port("gated");
        assertEquals(1, applicationWarmUps(), tomcat.tail());
        invoke(port, "stop");
        invoke(port, "start");
        assertServes(port);
        assertEquals(1, applicationWarmUps(), "the code compiled at the first start is still compiled");
    }

    @Test
    void aCertificateRotatedThroughReloadSslHostConfigsIsServedAndItsHandshakesAreStillGated() throws Exception {
        int port = tomcat.port("rotating");
        assertEquals(200, GatedTomcat.get(before, port, "/index.html").statusCode());
        Files.copy(after.path(), before.path(), StandardCopyOption.REPLACE_EXISTING);
        tomcat.jmx().invoke(GatedTomcat.tomcatMBean(tomcat, "ProtocolHandler", port), "reloadSslHostConfigs", new Object[0], new String[0]);

        assertEquals(200, GatedTomcat.get(after, port, "/index.html").statusCode());
        assertThrows(SSLHandshakeException.class, () -> GatedTomcat.get(before, port, "/index.html"),
                "the old certificate is no longer served");
        // The reloaded TLS contexts are built through the gate too: a resumption offer the engine cannot honour (a
        // session of another connector) is admitted as a resumption, and its full handshake refused at the certificate.
        Path foreign = sessions.resolve("stock-13.pem");
        assertTrue(OpenSslClient.to(tomcat.port("stock"), keystore).tls13().saveSession(foreign).run().fullHandshake());
        GateMXBean gate = GatedTomcat.gate(tomcat, port);
        GatedTomcat.budget(gate, 0, 0);
        long full = gate.getFullHandshakes();
        long late = gate.getLateRefusals();
        OpenSslClient.Result offer = OpenSslClient.to(port, after).option("-bind", "127.0.0.9:0").tls13().resume(foreign)
                .run();
        assertFalse(offer.fullHandshake(), offer.output());
        assertEquals(full, gate.getFullHandshakes(), "no certificate sent on an empty budget");
        assertEquals(late + 1, gate.getLateRefusals(), "refused at the certificate");
    }

    private int applicationWarmUps() {
        return (int) tomcat.catalinaOut().lines().filter(l -> l.contains("application warm-up on") && l.contains(" done: "))
                .count();
    }

    private void assertServes(int port) throws Exception {
        HttpResponse<String> response = GatedTomcat.get(keystore, port, "/index.html");
        assertEquals(200, response.statusCode());
        assertEquals("gated\n", response.body());
    }

    private void invoke(int port, String operation) throws Exception {
        tomcat.jmx().invoke(GatedTomcat.tomcatMBean(tomcat, "Connector", port), operation, new Object[0], new String[0]);
    }

    private int acceptorWarnings() {
        return (int) tomcat.catalinaOut().lines().filter(l -> l.contains("did not stop cleanly")).count();
    }
}
