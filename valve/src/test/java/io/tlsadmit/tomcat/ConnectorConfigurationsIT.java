package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.ClientCertificate;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gate under connector settings that production servers use and the other tests leave at Tomcat's defaults:
 * a small {@code maxConnections}, a shared {@code <Executor>}, several hosts with their own certificates (SNI),
 * each with its own session cache, and clients that must show a certificate (mutual TLS).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectorConfigurationsIT {

    private static final String OTHER_HOST = "other.test";

    private final TomcatDistribution distribution = GatedTomcat.distribution();
    private final TestKeystore keystore = GatedTomcat.keystore(distribution);
    private TestKeystore otherHost;
    private ClientCertificate client;
    private TomcatServer tomcat;
    /** Static: JUnit fills an instance's temp dir only before each test, after {@code @BeforeAll}. */
    @TempDir
    static Path sessions;

    @BeforeAll
    void start() {
        otherHost = GatedTomcat.freshKeystore(distribution);
        client = ClientCertificate.create(sessions.resolve("client"));
        tomcat = GatedTomcat.base(distribution, "connector-configurations")
                .serviceXml("<Executor name=\"shared\" namePrefix=\"shared-exec-\" maxThreads=\"20\" minSpareThreads=\"2\"/>")
                // two connection slots: one a refusal kept would wedge the connector
                .connector(GatedTomcat.gated("limited", keystore, "0", "0").attribute("maxConnections", "2"))
                .connector(GatedTomcat.gated("limited-channel", keystore, "0", "0").attribute("maxConnections", "2")
                        .attribute("nativePeek", "false"))
                .connector(GatedTomcat.gated("pooled", keystore, "1000", "1000").attribute("executor", "shared"))
                .connector(GatedTomcat.gated("hosts", keystore, "1000", "1000").nested(
                        "<SSLHostConfig hostName=\"" + OTHER_HOST + "\" protocols=\"TLSv1.2+TLSv1.3\">"
                                + "<Certificate certificateKeystoreFile=\"" + otherHost.path() + "\""
                                + " certificateKeystorePassword=\"" + otherHost.password() + "\""
                                + " certificateKeystoreType=\"PKCS12\"/></SSLHostConfig>"))
                .connector(GatedTomcat.gated("mutual", keystore, "1000", "1000")
                        .sslHostConfig("certificateVerification", "required")
                        .sslHostConfig("truststoreFile", client.truststore().toString())
                        .sslHostConfig("truststorePassword", ClientCertificate.PASSWORD)
                        .sslHostConfig("truststoreType", "PKCS12"))
                .file("webapps/ROOT/who.jsp", "<%@ page contentType=\"text/plain\" %>"
                        + "<% java.security.cert.X509Certificate[] chain = (java.security.cert.X509Certificate[])"
                        + " request.getAttribute(\"jakarta.servlet.request.X509Certificate\"); %>"
                        + "client=<%= chain == null ? \"none\" : chain[0].getSubjectX500Principal().getName() %>\n")
                .build()
                .start();
    }

    @AfterAll
    void stop() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    @AfterEach
    void closeTheBudgetsAgain() {
        GatedTomcat.budget(GatedTomcat.gate(tomcat, tomcat.port("limited")), 0, 0);
        GatedTomcat.budget(GatedTomcat.gate(tomcat, tomcat.port("limited-channel")), 0, 0);
        GatedTomcat.budget(GatedTomcat.gate(tomcat, tomcat.port("hosts")), 1000, 1000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"limited", "limited-channel"})
    void everyRefusedConnectionGivesItsMaxConnectionsSlotBack(String connector) {
        // refused on accept from the peek ("limited"), or by the channel on a worker ("limited-channel")
        int port = tomcat.port(connector);
        GateMXBean gate = GatedTomcat.gate(tomcat, port);
        long refused = gate.getNewRefused();
        for (int i = 0; i < 12; i++) {
            OpenSslClient.Result result = OpenSslClient.to(port, keystore).run();
            assertFalse(result.handshakeCompleted(), result.output());
        }
        assertEquals(refused + 12, gate.getNewRefused());
        GatedTomcat.budget(gate, 1000, 1000);
        // with a slot kept per refusal the acceptor would wait for one forever, and this client with it
        for (int i = 0; i < 3; i++) {
            OpenSslClient.Result served = OpenSslClient.to(port, keystore).path("/index.html").run();
            assertEquals(200, served.httpStatus(), served.output());
        }
    }

    @Test
    void aConnectorOnASharedExecutorServesAndItsGateDecides() {
        int port = tomcat.port("pooled");
        assertEquals(200, OpenSslClient.to(port, keystore).path("/index.html").run().httpStatus());
        assertTrue(tomcat.catalinaOut().lines().noneMatch(l -> l.contains("SEVERE")), tomcat::tail);
        GateMXBean gate = GatedTomcat.gate(tomcat, port);
        GatedTomcat.budget(gate, 0, 0);
        try {
            long refused = gate.getNewRefused();
            assertFalse(OpenSslClient.to(port, keystore).run().handshakeCompleted());
            assertEquals(refused + 1, gate.getNewRefused());
        } finally {
            GatedTomcat.budget(gate, 1000, 1000);
        }
    }

    @Test
    void eachHostsSessionsResumeFromItsOwnCacheOnAnEmptyBudget() {
        int port = tomcat.port("hosts");
        Path sessionId = sessions.resolve("other-host-12.pem");
        Path ticket = sessions.resolve("other-host-13.pem");
        // -verify_return_error with the other host's certificate as the only CA: it is what SNI other.test gets
        assertTrue(otherHostClient(port).tls12().noTicket().saveSession(sessionId).run().fullHandshake());
        assertTrue(otherHostClient(port).tls13().saveSession(ticket).run().fullHandshake());

        GateMXBean gate = GatedTomcat.gate(tomcat, port);
        GatedTomcat.budget(gate, 0, 0);
        long refused = gate.getNewRefused();
        OpenSslClient.Result byId = otherHostClient(port).tls12().noTicket().resume(sessionId).path("/index.html").run();
        assertTrue(byId.reused(), "a TLS 1.2 session id of the other host's cache: " + byId.output());
        assertEquals(200, byId.httpStatus(), byId.output());
        OpenSslClient.Result byTicket = otherHostClient(port).tls13().resume(ticket).path("/index.html").run();
        assertTrue(byTicket.reused(), byTicket.output());
        assertEquals(200, byTicket.httpStatus(), byTicket.output());
        assertEquals(refused, gate.getNewRefused(), "no resumption refused");

        // The default host's cache does not hold the other host's session id: offered there, it is a new client.
        OpenSslClient.Result elsewhere = OpenSslClient.to(port, keystore).tls12().noTicket().resume(sessionId).run();
        assertFalse(elsewhere.handshakeCompleted(), elsewhere.output());
        assertEquals(refused + 1, gate.getNewRefused());
    }

    @Test
    void aHelloOverTwoRecordsGetsTheCertificateOfTheHostItNames() throws Exception {
        int port = tomcat.port("hosts");
        GateMXBean gate = GatedTomcat.gate(tomcat, port);
        SSLEngine engine = SSLContext.getDefault().createSSLEngine(OTHER_HOST, port); // names the host (SNI)
        engine.setUseClientMode(true);
        engine.setEnabledProtocols(new String[] {"TLSv1.2"}); // so that the certificate comes back in the clear
        ByteBuffer hello = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), hello);
        hello.flip();
        // Record one: the handshake header, version and random; record two: the rest, the server name among it.
        int first = 4 + 2 + 32;
        int rest = hello.remaining() - 5 - first;
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(new byte[] {0x16, 0x03, 0x01, 0, (byte) first});
        wire.write(hello.array(), 5, first);
        wire.writeBytes(new byte[] {0x16, 0x03, 0x01, (byte) (rest >> 8), (byte) rest});
        wire.write(hello.array(), 5 + first, rest);
        byte[] certificate = otherHost.certificate().getEncoded();
        long onAccept = gate.getDecidedOnAccept();
        ByteArrayOutputStream reply = new ByteArrayOutputStream();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(wire.toByteArray()); // one write: all there when the acceptor peeks
            InputStream in = socket.getInputStream();
            byte[] chunk = new byte[4096];
            int n;
            while (indexOf(reply.toByteArray(), certificate) < 0 && (n = in.read(chunk)) > 0) {
                reply.write(chunk, 0, n);
            }
        } catch (SocketTimeoutException e) {
            // what came back is checked below
        }
        // Tomcat's server-name extractor reads the first record only: unjoined, it finds no name (or garbage) and
        // the default host's certificate comes back.
        assertTrue(indexOf(reply.toByteArray(), certificate) >= 0,
                "the other host's certificate in the server's flight of " + reply.size() + " bytes");
        assertEquals(onAccept + (gate.isNativePeek() ? 1 : 0), gate.getDecidedOnAccept(), "decided on accept");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void aClientThatShowedItsCertificateResumesOnAnEmptyBudgetAndIsStillKnownByIt() {
        int port = tomcat.port("mutual");
        Path psk = sessions.resolve("mutual-13.pem");
        Path sessionId = sessions.resolve("mutual-12.pem");
        OpenSslClient.Result first = withCertificate(port).tls13().saveSession(psk).path("/who.jsp").run();
        assertTrue(first.fullHandshake(), first.output());
        assertTrue(first.output().contains("client=" + ClientCertificate.SUBJECT + "\n"), first.output());
        assertTrue(withCertificate(port).tls12().noTicket().saveSession(sessionId).run().fullHandshake());
        OpenSslClient.Result anonymous = OpenSslClient.to(port, keystore).path("/who.jsp").run();
        assertTrue(anonymous.httpStatus() != 200, "certificateVerification=required: " + anonymous.output());

        GateMXBean gate = GatedTomcat.gate(tomcat, port);
        GatedTomcat.budget(gate, 0, 0);
        try {
            long refused = gate.getNewRefused();
            for (OpenSslClient resuming : List.of(withCertificate(port).tls13().resume(psk),
                    withCertificate(port).tls12().noTicket().resume(sessionId))) {
                OpenSslClient.Result again = resuming.path("/who.jsp").run();
                assertTrue(again.reused(), again.output());
                assertTrue(again.output().contains("client=" + ClientCertificate.SUBJECT + "\n"),
                        "the resumed session carries the client's certificate: " + again.output());
            }
            assertEquals(refused, gate.getNewRefused());
            assertFalse(withCertificate(port).run().handshakeCompleted(), "a new mutual-TLS client on an empty budget");
            assertEquals(refused + 1, gate.getNewRefused());
        } finally {
            GatedTomcat.budget(gate, 1000, 1000);
        }
    }

    private OpenSslClient withCertificate(int port) {
        return OpenSslClient.to(port, keystore).option("-cert", client.certificate().toString(), "-key",
                client.key().toString());
    }

    private OpenSslClient otherHostClient(int port) {
        return OpenSslClient.to(port, otherHost).serverName(OTHER_HOST);
    }
}
