package io.tlsadmit.loadtests;

import static io.tlsadmit.loadtests.GatlingRun.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.loadtests.server.RubisTomcat;
import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import io.tlsadmit.testing.PrometheusScrape;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.management.Attribute;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The smoke run of the load test: a few dozen Gatling RUBiS users against the real Tomcat distribution with
 * rubis.war (H2, small data set) and the tlsadmit gate, judged by what the users saw and by the server's
 * truth metrics (what each TLS handshake really was).
 *
 * <p>The TLS connectors close a keep-alive connection after 3 requests, so every user reconnects several times
 * in a short session: each reconnect must be a resumption of the user's one full handshake.
 */
class GatedTomcatSmokeIT {

    private static final Path RESULTS = Path.of("target", "smoke-runs");

    private static TomcatServer tomcat;

    @BeforeAll
    static void startGatedRubis() throws Exception {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TestKeystore keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"),
                TestKeystore.KeyType.RSA_2048);
        tomcat = TomcatServer.builder(distribution)
                .name("rubis-smoke")
                .connector(gated(RubisTomcat.gated("tls13", keystore, "TLSv1.3", "1000")))
                .connector(gated(RubisTomcat.gated("tls12", keystore, "TLSv1.2", "1000")))
                .connector(ConnectorSpec.http("plain"))
                .engineXml(RubisTomcat.GATE_VALVE)
                .lib(RubisTomcat.gateJar())
                .webapp(RubisTomcat.war())
                .catalinaOpt("-Xmx512m")
                .catalinaOpt("-Drubis.scale=0.002")
                .jmx()
                .startTimeout(Duration.ofSeconds(120))
                .build()
                .start();
        awaitHealthy();
    }

    /** Short keep-alive so that every user reconnects, and resumes, several times in a short session. */
    private static ConnectorSpec gated(ConnectorSpec connector) {
        return connector.attribute("maxKeepAliveRequests", "3").attribute("maxThreads", "50");
    }

    @AfterAll
    static void stop() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    @Test
    void everyUserCompletesItsSessionWithOneFullHandshakeOverTls13() throws Exception {
        everyUserCompletesItsSessionWithOneFullHandshake("tls13");
    }

    @Test
    void everyUserCompletesItsSessionWithOneFullHandshakeOverTls12() throws Exception {
        everyUserCompletesItsSessionWithOneFullHandshake("tls12");
    }

    private void everyUserCompletesItsSessionWithOneFullHandshake(String connector) throws Exception {
        setBudget(connector, 1000);
        Map<String, String> run = GatlingRun.run(RESULTS, "sessions-" + connector, users(connector, 24, 8, 12));

        assertEquals(24, number(run, "sessionsStarted"), () -> "figures: " + run);
        assertEquals(24, number(run, "sessionsCompleted"), () -> "figures: " + run);
        assertEquals(0, number(run, "sessionsAbandoned"), () -> "figures: " + run);
        assertEquals(0, number(run, "connectionsRefused"), () -> "figures: " + run);
        assertEquals(0, number(run, "errorPages"), () -> "figures: " + run);
        // server truth: one full handshake per user, every later connection of a user resumed
        assertEquals(24, number(run, "serverFullHandshakes"), () -> "figures: " + run);
        assertTrue(number(run, "serverResumedHandshakes") >= 24,
                () -> "each user reconnects at least once after 3 requests; figures: " + run);
    }

    @Test
    void aBudgetOfZeroRefusesOnlyUsersWithoutATlsSession() throws Exception {
        String connector = "tls13";
        setBudget(connector, 1000);
        long fullBefore = serverFullHandshakes();
        Map<String, String> properties = users(connector, 32, 4, 30);
        properties.put("rubis.connectAttempts", "2");
        properties.put("rubis.refusedBackoffMs", "200");
        CompletableFuture<Map<String, String>> running = CompletableFuture.supplyAsync(
                () -> GatlingRun.run(RESULTS, "budget-zero", properties));
        // once a third of the users hold a session, close the gate to new handshakes
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (serverFullHandshakes() < fullBefore + 10 && System.nanoTime() < deadline && !running.isDone()) {
            Thread.sleep(50);
        }
        setBudget(connector, 0);
        Map<String, String> run = running.get();

        assertTrue(number(run, "sessionsRefused") > 0, () -> "users arriving later are refused; figures: " + run);
        assertEquals(0, number(run, "knownUsersRefused"), () -> "a user with a session resumes; figures: " + run);
        assertEquals(0, number(run, "sessionsAbandoned"), () -> "figures: " + run);
        assertEquals(number(run, "sessionsStarted"),
                number(run, "sessionsCompleted") + number(run, "sessionsRefused"), () -> "figures: " + run);
        assertTrue(number(run, "serverResumedHandshakes") > 0, () -> "figures: " + run);
        // the NEW/refused series of every connector (each series carries its connector label)
        long newRefused = run.keySet().stream().filter(key -> key.startsWith("tlsadmit_connections_total{")
                        && key.contains("decision=\"refused\"") && key.contains("verdict=\"NEW\""))
                .mapToLong(key -> number(run, key)).sum();
        assertEquals(number(run, "serverConnectionsRefused"), newRefused,
                () -> "only connections without a session to resume are refused; figures: " + run);
    }

    /** Users of the browsing mix on one connector, short think times, the smoke run's short sessions. */
    private static Map<String, String> users(String connector, int users, double usersPerSec, int pages) {
        Map<String, String> p = new HashMap<>();
        p.put("rubis.baseUrl", "https://127.0.0.1:" + tomcat.port(connector));
        p.put("rubis.metricsUrl", "http://127.0.0.1:" + tomcat.port("plain") + "/tlsadmit/metrics");
        p.put("rubis.serverPid", Long.toString(tomcat.pid()));
        p.put("rubis.mix", "browsing");
        p.put("rubis.model", "open");
        p.put("rubis.poisson", "false");
        p.put("rubis.usersPerSec", Double.toString(usersPerSec));
        p.put("rubis.durationSec", Double.toString(users / usersPerSec));
        p.put("rubis.drainSec", "60");
        p.put("rubis.thinkTimeScale", "0.02");
        p.put("rubis.maxTransitions", Integer.toString(pages));
        return p;
    }

    private static void setBudget(String connector, double perSecond) throws Exception {
        MBeanServerConnection jmx = tomcat.jmx();
        ObjectName gate = gateOf(jmx, tomcat.port(connector));
        jmx.setAttribute(gate, new Attribute("FullHandshakeBurst", perSecond == 0 ? 0L : 1000L));
        jmx.setAttribute(gate, new Attribute("MaxFullHandshakesPerSecond", perSecond));
    }

    private static ObjectName gateOf(MBeanServerConnection jmx, int port) throws Exception {
        Set<ObjectName> gates = jmx.queryNames(new ObjectName("io.tlsadmit:type=Gate,*"), null);
        for (ObjectName gate : gates) {
            if (gate.getKeyProperty("connector").contains("-" + port)) {
                return gate;
            }
        }
        throw new AssertionError("no gate MBean for port " + port + " among " + gates);
    }

    private static long serverFullHandshakes() {
        String text = get("/tlsadmit/metrics");
        return Math.round(PrometheusScrape.parse(text).value("tlsadmit_handshakes_total", "kind", "full"));
    }

    private static void awaitHealthy() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> health = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(plain("/rubis/health")).build(), HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() == 200) {
                    return;
                }
                last = health.statusCode() + " " + health.body();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(250);
        }
        throw new AssertionError("rubis did not become healthy: " + last + "\n" + tomcat.tail());
    }

    private static String get(String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(plain(path)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new AssertionError("GET " + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static URI plain(String path) {
        return URI.create("http://127.0.0.1:" + tomcat.port("plain") + path);
    }
}
