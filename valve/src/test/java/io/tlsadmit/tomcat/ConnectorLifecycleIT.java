package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An operator stops, starts, pauses and resumes connectors through Tomcat's own {@code Connector} MBean (the
 * manager app, a deployment script, a graceful shutdown all do): the gated connector behaves there as Tomcat's own
 * does, which serves beside it in the same server as the reference. The gated connector's listening socket hands
 * a connection over only once it has bytes ({@code TCP_DEFER_ACCEPT}), so Tomcat's way of waking its acceptor (an
 * empty connection) would not reach it: the acceptor stayed blocked, "did not stop cleanly", and after a restart
 * or a resume took the next client's connection only to close it. An application warm-up runs at the first start
 * only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectorLifecycleIT {

    private final TomcatDistribution distribution = GatedTomcat.distribution();
    private final TestKeystore keystore = GatedTomcat.keystore(distribution);
    private TomcatServer tomcat;

    @BeforeAll
    void start() {
        tomcat = GatedTomcat.base(distribution, "connector-lifecycle")
                .connector(ConnectorSpec.https("stock", keystore).sslHostConfig("protocols", "TLSv1.2+TLSv1.3"))
                .connector(GatedTomcat.gated("gated", keystore, "1000", "1000")
                        .attribute("warmUpRequests", "/index.html")
                        .attribute("warmUpSeconds", "1"))
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
    @ValueSource(strings = {"stock", "gated"})
    void aConnectorStoppedAndStartedThroughJmxServesEveryClientAgain(String connector) throws Exception {
        int port = tomcat.port(connector);
        assertServes(port);
        int before = acceptorWarnings();
        invoke(port, "stop");
        invoke(port, "start");
        for (int i = 0; i < 3; i++) {
            assertServes(port);
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
        MBeanServerConnection jmx = tomcat.jmx();
        jmx.invoke(connector(jmx, port), operation, new Object[0], new String[0]);
    }

    /** The connectors listen on ports chosen at start, so their MBeans are named {@code port=auto-N}. */
    private static ObjectName connector(MBeanServerConnection jmx, int port) throws Exception {
        for (ObjectName name : jmx.queryNames(new ObjectName("Catalina:type=Connector,*"), null)) {
            if (Integer.valueOf(port).equals(jmx.getAttribute(name, "localPort"))) {
                return name;
            }
        }
        throw new IllegalStateException("No Connector MBean listens on " + port);
    }

    private int acceptorWarnings() {
        return (int) tomcat.catalinaOut().lines().filter(l -> l.contains("did not stop cleanly")).count();
    }
}
