package io.tlsadmit.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.FreePort;
import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.Attribute;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed deploy/haproxy/haproxy.cfg, run on loopback in front of two real Tomcats (JSSE connectors with the
 * gate, each Tomcat naming itself in node.jsp). Clients connect from different loopback source addresses, so the test can
 * pick a pair that the source hash sends to different nodes: a resumption that still lands on the node holding
 * its session proves the session-id stick table, not the hash, routed it.
 */
class HaproxyStickinessTest {

    static final String CONFIG = "deploy/haproxy/haproxy.cfg";
    private static final Pattern NODE = Pattern.compile("\nnode=(\\S+)\n");
    private static final String OPEN_BUDGET = "1000";

    private static TestKeystore keystore;
    private static final Map<String, TomcatServer> nodes = new LinkedHashMap<>();
    private static Process haproxy;
    private static Path haproxyLog;
    private static int frontend;
    /** A loopback source address that the source hash sends to tomcat-a, and one it sends to tomcat-b. */
    private static String fromA;
    private static String fromB;

    @TempDir
    Path sessions;

    @BeforeAll
    static void startTwoTomcatsBehindHaproxy() throws Exception {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"));
        Path gateJar = BuiltArtifact.GATE_JAR.copyInto(distribution.home().getParent().resolve("artifacts"));
        List<CompletableFuture<TomcatServer>> starting = new ArrayList<>();
        for (String node : List.of("tomcat-a", "tomcat-b")) {
            TomcatServer server = TomcatServer.builder(distribution)
                    .name(node)
                    // the gate as compose runs it, on a static budget the test can empty through JMX
                    .connector(ConnectorSpec.https("tls", keystore)
                            .protocol(ServerXml.GATED_PROTOCOL)
                            .attribute("budget", "static")
                            .attribute("maxFullHandshakesPerSecond", OPEN_BUDGET)
                            .attribute("fullHandshakeBurst", OPEN_BUDGET)
                            .sslHostConfig("protocols", "TLSv1.2+TLSv1.3"))
                    .connector(ConnectorSpec.http("plain"))
                    .engineXml("<Valve className=\"" + ServerXml.VALVE + "\"/>")
                    .lib(gateJar)
                    .jmx()
                    .file("webapps/ROOT/node.jsp", Repository.read("deploy/tomcat/node.jsp"))
                    .catalinaOpt("-Xmx192m")
                    .catalinaOpt("-XX:TieredStopAtLevel=1")
                    .catalinaOpt("-Dtlsadmit.node=" + node)
                    .catalinaOpt(replicaOptions(node))
                    .build();
            nodes.put(node, server);
            starting.add(CompletableFuture.supplyAsync(server::start));
        }
        for (CompletableFuture<TomcatServer> start : starting) {
            start.join();
        }

        frontend = FreePort.pick();
        haproxyLog = nodes.get("tomcat-a").base().resolveSibling("haproxy-" + ProcessHandle.current().pid() + ".log");
        ProcessBuilder builder = new ProcessBuilder(Command.installed("haproxy").toString(), "-db", "-f",
                Repository.file(CONFIG).toString())
                .redirectErrorStream(true)
                .redirectOutput(haproxyLog.toFile());
        builder.environment().putAll(loopbackEnvironment());
        haproxy = builder.start();
        awaitFrontend();
        mapSourceAddressesToNodes();
    }

    @AfterAll
    static void stopAll() {
        if (haproxy != null) {
            haproxy.destroy();
        }
        nodes.values().forEach(TomcatServer::close);
    }

    @Test
    void haproxyAcceptsTheConfigurationAsComposeFillsIt() {
        Map<String, String> env = new HashMap<>();
        ComposeFile.map(ComposeFile.load().service("haproxy"), "environment").forEach((k, v) -> env.put(k, v.toString()));
        Command check = Command.run(env, "haproxy", "-c", "-f", CONFIG);
        // on this machine tomcat-a/b do not resolve: HAProxy warns and starts anyway (init-addr none)
        assertTrue(check.succeeded(), check::toString);
        assertTrue(check.output().contains("Configuration file is valid"), check::toString);
    }

    @Test
    void tls12ResumptionLandsOnTheIssuingNodeEvenFromAnAddressHashedToTheOther() {
        for (boolean clientOffersTickets : new boolean[] {false, true}) {
            for (String[] route : new String[][] {{fromA, fromB, "tomcat-a"}, {fromB, fromA, "tomcat-b"}}) {
                Path session = sessions.resolve("tls12-" + route[2] + "-" + clientOffersTickets);
                OpenSslClient.Result first = tls12(route[0], clientOffersTickets).saveSession(session).run();
                assertTrue(first.fullHandshake(), first::output);
                assertEquals(route[2], node(first));

                for (int i = 0; i < 3; i++) {
                    OpenSslClient.Result resumed = tls12(route[1], clientOffersTickets).resume(session).run();
                    assertTrue(resumed.reused(), () -> "not resumed from " + route[1] + ":\n" + resumed.output()
                            + "\nhaproxy:\n" + haproxyLogText());
                    assertEquals(route[2], node(resumed), "resumption from " + route[1] + " left the issuing node");
                }
            }
        }
    }

    @Test
    void tls13ResumptionKeepsItsNodeThroughTheSourceAddressOnly() {
        Path session = sessions.resolve("tls13");
        OpenSslClient.Result first = client(fromA).tls13().saveSession(session).run();
        assertTrue(first.fullHandshake(), first::output);
        assertEquals("tomcat-a", node(first));

        OpenSslClient.Result sameAddress = client(fromA).tls13().resume(session).run();
        assertTrue(sameAddress.reused(), sameAddress::output);
        assertEquals("tomcat-a", node(sameAddress));

        // the documented limit: a TLS 1.3 PSK carries no session id HAProxy could stick on, and JSSE cannot share
        // ticket keys, so from an address hashed to the other node the resumption becomes a full handshake there
        OpenSslClient.Result otherAddress = client(fromB).tls13().resume(session).run();
        assertEquals("tomcat-b", node(otherAddress));
        assertFalse(otherAddress.reused(), otherAddress::output);
        assertTrue(otherAddress.fullHandshake(), otherAddress::output);
    }

    @Test
    void withEveryBudgetEmptyAResumptionIsStillAdmittedOnTheIssuingNodeAndNewClientsAreRefused() throws Exception {
        Path session = sessions.resolve("tls12-empty-budget");
        OpenSslClient.Result first = tls12(fromA).saveSession(session).run();
        assertTrue(first.fullHandshake(), first::output);
        assertEquals("tomcat-a", node(first));
        try {
            setEveryBudget(0);
            OpenSslClient.Result resumed = tls12(fromB).resume(session).run();
            assertTrue(resumed.reused(), resumed::output);
            assertEquals(200, resumed.httpStatus(), resumed::output);
            assertEquals("tomcat-a", node(resumed));

            OpenSslClient.Result newcomer = tls12(fromB).run();
            assertFalse(newcomer.handshakeCompleted(), newcomer::output);
        } finally {
            setEveryBudget(Double.parseDouble(OPEN_BUDGET));
        }
    }

    /** What an operator does during an incident: the budget's rate through JMX, on every node. */
    private static void setEveryBudget(double rate) throws Exception {
        for (TomcatServer node : nodes.values()) {
            MBeanServerConnection jmx = node.jmx();
            Set<ObjectName> gates = jmx.queryNames(new ObjectName("io.tlsadmit:type=Gate,*"), null);
            assertEquals(1, gates.size(), gates::toString);
            jmx.setAttribute(gates.iterator().next(), new Attribute("MaxFullHandshakesPerSecond", rate));
        }
    }

    private static OpenSslClient tls12(String source) {
        return tls12(source, false);
    }

    /** A TLS 1.2 client; one that offers tickets still resumes by session id, as the replicas issue none. */
    private static OpenSslClient tls12(String source, boolean offersTickets) {
        OpenSslClient client = client(source).tls12();
        return offersTickets ? client : client.noTicket();
    }

    /** The JVM options docker-compose.yml gives this replica (they turn TLS 1.2 tickets off). */
    private static String replicaOptions(String node) {
        return ComposeFile.map(ComposeFile.load().service(node), "environment").get("CATALINA_OPTS").toString();
    }

    private static OpenSslClient client(String source) {
        return OpenSslClient.to(frontend, keystore).option("-bind", source + ":0").path("/node.jsp");
    }

    private static String node(OpenSslClient.Result result) {
        Matcher node = NODE.matcher(result.output().replace("\r\n", "\n"));
        assertTrue(node.find(), () -> "no node named in the response:\n" + result.output());
        return node.group(1);
    }

    /** Full handshakes from 127.0.0.2, .3, ... until the source hash has sent one address to each node. */
    private static void mapSourceAddressesToNodes() {
        for (int host = 2; host < 64 && (fromA == null || fromB == null); host++) {
            String source = "127.0.0." + host;
            OpenSslClient.Result result = tls12(source).run();
            assertEquals(200, result.httpStatus(), () -> result.output() + "\nhaproxy:\n" + haproxyLogText());
            String node = node(result);
            if (node.equals("tomcat-a") && fromA == null) {
                fromA = source;
            } else if (node.equals("tomcat-b") && fromB == null) {
                fromB = source;
            }
        }
        assertTrue(fromA != null && fromB != null, "the source hash sent 62 addresses to one node: " + haproxyLogText());
        // the hash is a pure function of the address: check the pair still routes as mapped
        assertEquals("tomcat-a", node(tls12(fromA).run()));
        assertEquals("tomcat-b", node(tls12(fromB).run()));
    }

    private static Map<String, String> loopbackEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put("TLSADMIT_FRONTEND", "127.0.0.1:" + frontend);
        env.put("TLSADMIT_NODE_A", "127.0.0.1:" + nodes.get("tomcat-a").port("tls"));
        env.put("TLSADMIT_NODE_A_CHECK_PORT", String.valueOf(nodes.get("tomcat-a").port("plain")));
        env.put("TLSADMIT_NODE_B", "127.0.0.1:" + nodes.get("tomcat-b").port("tls"));
        env.put("TLSADMIT_NODE_B_CHECK_PORT", String.valueOf(nodes.get("tomcat-b").port("plain")));
        return env;
    }

    private static void awaitFrontend() throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!haproxy.isAlive()) {
                throw new IllegalStateException("haproxy exited with " + haproxy.exitValue() + ":\n" + haproxyLogText());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", frontend), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("haproxy did not listen on " + frontend + ":\n" + haproxyLogText());
    }

    private static String haproxyLogText() {
        try {
            return Files.readString(haproxyLog);
        } catch (IOException e) {
            return "(no haproxy log: " + e.getMessage() + ")";
        }
    }
}
