package io.tlsadmit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TomcatServerTest {

    private static TomcatServer server;
    private static TestKeystore keystore;

    @BeforeAll
    static void startOneTomcat() {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"));
        server = TomcatServer.builder(distribution)
                .name("test-support")
                .connector(ConnectorSpec.http("http"))
                .connector(ConnectorSpec.https("https", keystore))
                .file("webapps/ROOT/index.html", "hello from the test base\n")
                .jmx()
                .build()
                .start();
    }

    @AfterAll
    static void stopIt() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void servesTheBaseWebappOverHttpsWithTheTestCertificate() throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(keystore.clientContext("TLSv1.3"))
                .connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + server.port("https") + "/index.html")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertEquals("hello from the test base\n", response.body());
    }

    @Test
    void runsTheUnpackedDistributionAndLogsToCatalinaOut() {
        assertTrue(server.distribution().version().startsWith("11.0."), server.distribution().version());
        assertTrue(server.catalinaOut().contains("Server startup in"), server.tail());
        assertTrue(server.catalinaOut().contains("CATALINA_BASE:         " + server.base()), server.tail());
    }

    @Test
    void pidIsTheTomcatJvmItself() {
        // catalina.sh run execs java, so signals and taskset reach Tomcat, not a shell.
        String command = ProcessHandle.of(server.pid()).flatMap(p -> p.info().command()).orElse("");
        assertTrue(command.endsWith("/java"), command);
    }

    @Test
    void exposesTomcatMBeansOverJmx() throws Exception {
        assertTrue(server.jmx().isRegistered(new javax.management.ObjectName("Catalina:type=Server")));
    }

    @Test
    void unknownConnectorNameIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> server.port("ajp"));
        assertTrue(e.getMessage().contains("ajp"));
    }

    @Test
    void closeEndsTheProcessAndFreesItsPorts() throws IOException {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TomcatServer second = TomcatServer.builder(distribution).name("close").connector(ConnectorSpec.http("http"))
                .build();
        int port = second.port("http");
        try (second) {
            second.start();
            assertTrue(second.isRunning());
        }
        assertFalse(second.isRunning());
        try (Socket socket = new Socket()) {
            assertThrows(IOException.class, () -> socket.connect(new InetSocketAddress("127.0.0.1", port), 1000));
        }
    }

    /**
     * A harness stopped before it closes its servers (Ctrl-C on a benchmark) must not leave them running: an orphaned
     * Tomcat kept its CPU and ports busy through the next run.
     */
    @Test
    void aJvmStoppedBeforeItClosesItsTomcatTakesTheTomcatWithIt() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process harness = new ProcessBuilder(java, "-D" + TomcatDistribution.HOME_PROPERTY + "="
                + TomcatDistribution.fromBuild().home(), "-cp", System.getProperty("java.class.path"),
                StartsATomcatAndWaits.class.getName()).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(harness.getInputStream(), StandardCharsets.UTF_8));
            String line;
            long tomcatPid = -1;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("tomcat pid ")) {
                    tomcatPid = Long.parseLong(line.substring("tomcat pid ".length()).trim());
                    break;
                }
            }
            assertTrue(tomcatPid > 0, "the harness never reported its Tomcat");
            Optional<ProcessHandle> tomcat = ProcessHandle.of(tomcatPid);
            assertTrue(tomcat.isPresent() && tomcat.get().isAlive());
            harness.destroy(); // SIGTERM, as Ctrl-C or kill would
            assertTrue(harness.waitFor(30, TimeUnit.SECONDS));
            tomcat.get().onExit().get(10, TimeUnit.SECONDS);
            assertFalse(tomcat.get().isAlive(), "Tomcat " + tomcatPid + " outlived the JVM that started it");
        } finally {
            harness.destroyForcibly();
        }
    }

    /** The child JVM of the test above. */
    static final class StartsATomcatAndWaits {
        public static void main(String[] args) throws InterruptedException {
            TomcatServer server = TomcatServer.builder(TomcatDistribution.fromBuild()).name("orphan-check")
                    .connector(ConnectorSpec.http("http")).build().start();
            System.out.println("tomcat pid " + server.pid());
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }
    }

    @Test
    void failedStartReportsTheEndOfCatalinaOut() {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TomcatServer broken = TomcatServer.builder(distribution).name("broken")
                .connector(ConnectorSpec.http("http"))
                .engineXml("<Valve className=\"io.tlsadmit.testing.NoSuchValve\"/>")
                .startTimeout(Duration.ofSeconds(30))
                .build();
        try (broken) {
            TomcatStartException e = assertThrows(TomcatStartException.class, broken::start);
            assertTrue(e.getMessage().contains("NoSuchValve"), e.getMessage());
        }
    }

    @Test
    void aConnectorThatFailsToStartFailsTheStartThoughTheOthersServe() {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TomcatServer broken = TomcatServer.builder(distribution).name("broken-connector")
                .connector(ConnectorSpec.http("http"))
                .connector(ConnectorSpec.http("broken").protocol("io.tlsadmit.testing.NoSuchProtocol"))
                .startTimeout(Duration.ofSeconds(60))
                .build();
        try (broken) {
            TomcatStartException e = assertThrows(TomcatStartException.class, broken::start);
            assertTrue(e.getMessage().startsWith("A connector failed to start"), e.getMessage());
            assertTrue(e.getMessage().contains("NoSuchProtocol"), e.getMessage());
        }
    }

    @Test
    void aConnectorWhosePortAnotherListenerHoldsFailsTheStartThoughThePortAccepts() throws IOException {
        // What CI met: the port accepts (another listener's), so only Tomcat's log says the connector is not there.
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TomcatServer taken = TomcatServer.builder(distribution).name("taken-port")
                .connector(ConnectorSpec.http("http"))
                .connector(ConnectorSpec.http("late").attribute("bindOnInit", "false"))
                .startTimeout(Duration.ofSeconds(60))
                .build();
        try (taken; ServerSocket other = new ServerSocket()) {
            other.bind(new InetSocketAddress("127.0.0.1", taken.port("late")));
            TomcatStartException e = assertThrows(TomcatStartException.class, taken::start);
            assertTrue(e.getMessage().startsWith("A connector failed to start"), e.getMessage());
        }
    }
}
