package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a refusal by {@code newSessionPolicy} costs the refused client, counted by the server: a client that
 * keeps its connection alive (the JDK's HttpClient) asks {@value #REQUESTS} times for a page that would start a
 * session while the budget is empty. Tomcat closes the connection after a 503, so each refusal costs a new TLS
 * connection and its (resumption) handshake; after a 429 the client asks again on the same connection. Also:
 * the sample {@code deploy/tomcat/server.xml}'s access-log pattern logs the gate's verdict and the handshake.
 */
class NewSessionStatusIT {

    private static final int REQUESTS = 10;
    private static final String SESSION_PAGE = "/attributes.jsp";

    private static TestKeystore keystore;
    private static TomcatServer with503;
    private static TomcatServer with429;

    @BeforeAll
    static void start() throws Exception {
        TomcatDistribution distribution = GatedTomcat.distribution();
        keystore = GatedTomcat.keystore(distribution);
        String accessLog = "<Valve className=\"org.apache.catalina.valves.AccessLogValve\" directory=\"logs\""
                + " prefix=\"access\" suffix=\".log\" rotatable=\"false\" buffered=\"false\" pattern=\""
                + escape(samplePattern()) + "\"/>";
        with503 = sessionGate(distribution, "status-503", "503", accessLog);
        with429 = sessionGate(distribution, "status-429", "429", accessLog);
    }

    private static TomcatServer sessionGate(TomcatDistribution distribution, String name, String status, String accessLog) {
        return GatedTomcat.base(distribution, name)
                .connector(GatedTomcat.gated("gate", keystore, "1000", "1000"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\" newSessionPolicy=\"on\" newSessionStatus=\""
                        + status + "\"/>" + accessLog)
                .build()
                .start();
    }

    @AfterAll
    static void stop() {
        for (TomcatServer tomcat : new TomcatServer[] {with503, with429}) {
            if (tomcat != null) {
                tomcat.close();
            }
        }
    }

    @Test
    void a503CostsTheRefusedClientANewTlsConnectionPerRefusal() throws Exception {
        Refusals refusals = refuse(with503);
        assertEquals(List.of(503), refusals.statuses(), "every request refused");
        System.out.println("newSessionStatus=503: " + refusals);
        assertEquals(REQUESTS, refusals.connections(), "Tomcat closed the connection after each 503: " + refusals);
        assertEquals(REQUESTS, refusals.handshakes(), "a resumption handshake per refusal: " + refusals);
    }

    @Test
    void a429KeepsTheConnection() throws Exception {
        Refusals refusals = refuse(with429);
        assertEquals(List.of(429), refusals.statuses(), "every request refused");
        System.out.println("newSessionStatus=429: " + refusals);
        assertEquals(1, refusals.connections(), "all refusals on one connection: " + refusals);
        assertEquals(1, refusals.handshakes(), "one handshake for all refusals: " + refusals);
    }

    @Test
    void theSampleAccessLogPatternLogsVerdictAndHandshake() throws Exception {
        refuse(with429);
        Path log = with429.base().resolve("logs/access.log");
        // The line is written after the response has gone out: wait for it.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> lines = List.of();
        while (System.nanoTime() < deadline) {
            lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            if (has(lines, " 200 ", "NEW", "FULL") && has(lines, " 429 ", "RESUME_PSK", "RESUMED")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no line with the verdict and handshake for the admitted new client (200 NEW FULL)"
                + " and the refused resumed one (429 RESUME_PSK RESUMED) in " + log + ":\n" + String.join("\n", lines));
    }

    private static boolean has(List<String> lines, String status, String verdict, String handshake) {
        Pattern verdictWord = Pattern.compile("\\b" + verdict + "\\b");
        Pattern handshakeWord = Pattern.compile("\\b" + handshake + "\\b");
        return lines.stream().anyMatch(l -> l.contains(SESSION_PAGE) && l.contains(status)
                && verdictWord.matcher(l).find() && handshakeWord.matcher(l).find());
    }

    /**
     * A new client takes a token and gets the page (so the valve learns it starts sessions); then, with the budget
     * empty, a second client resuming the first one's TLS session asks for it {@value #REQUESTS} times, one
     * request after another, without a session cookie.
     */
    private static Refusals refuse(TomcatServer tomcat) throws IOException, InterruptedException {
        int port = tomcat.port("gate");
        GateMXBean gate = GatedTomcat.gate(tomcat, port);
        GatedTomcat.budget(gate, 1000, 1000);
        SSLContext tls = keystore.clientContext("TLSv1.3");
        assertEquals(200, send(client(tls), port).statusCode(), "tokens left: the new client is served");

        GatedTomcat.budget(gate, 0, 0);
        try {
            long handshakes = gate.getFullHandshakes() + gate.getResumedHandshakes();
            long connections = gate.getResumptionsAdmitted() + gate.getNewAdmitted();
            HttpClient keepAlive = client(tls);
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                HttpResponse<String> response = send(keepAlive, port);
                if (!statuses.contains(response.statusCode())) {
                    statuses.add(response.statusCode());
                }
                assertTrue(response.headers().firstValue("Retry-After").isPresent(), "Retry-After on a refusal");
            }
            return new Refusals(statuses, gate.getResumptionsAdmitted() + gate.getNewAdmitted() - connections,
                    gate.getFullHandshakes() + gate.getResumedHandshakes() - handshakes);
        } finally {
            GatedTomcat.budget(gate, 1000, 1000);
        }
    }

    private static HttpClient client(SSLContext tls) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static HttpResponse<String> send(HttpClient client, int port) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + SESSION_PAGE))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Distinct statuses seen, connections the gate admitted and TLS handshakes the server did for the requests. */
    record Refusals(List<Integer> statuses, long connections, long handshakes) {
        @Override
        public String toString() {
            return REQUESTS + " refused requests: statuses " + statuses + ", " + connections + " TLS connections, "
                    + handshakes + " handshakes";
        }
    }

    /** The AccessLogValve pattern of the sample server.xml operators copy. */
    private static String samplePattern() throws Exception {
        Path serverXml = Path.of(System.getProperty("tlsadmit.root", "..")).resolve("deploy/tomcat/server.xml");
        NodeList valves = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(serverXml.toFile())
                .getElementsByTagName("Valve");
        for (int i = 0; i < valves.getLength(); i++) {
            Element valve = (Element) valves.item(i);
            if (valve.getAttribute("className").equals("org.apache.catalina.valves.AccessLogValve")) {
                return valve.getAttribute("pattern");
            }
        }
        throw new IllegalStateException("No AccessLogValve in " + serverXml);
    }

    private static String escape(String attribute) {
        return attribute.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
    }
}
