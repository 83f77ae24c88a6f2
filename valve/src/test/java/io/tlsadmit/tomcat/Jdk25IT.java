package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same admission behaviour on JDK 25, with JSSE (whose stateless-ticket decoding asks the key
 * manager too, JDK-8357033) and with Tomcat's OpenSSL implementation through FFM on the machine's
 * libssl: Tomcat's own (no late gate: the early gate and the truth must still hold) and ours, whose
 * certificate callback is the late gate. One Tomcat for the class.
 */
class Jdk25IT {

    static final String OPENSSL_FFM = "org.apache.tomcat.util.net.openssl.panama.OpenSSLImplementation";

    private static TomcatServer tomcat;
    private static TestKeystore keystore;

    @TempDir
    Path sessions;

    @BeforeAll
    static void startTomcatOnJdk25() {
        Optional<Jdk> jdk25 = Jdk.find(25);
        assumeTrue(jdk25.isPresent(), "no JDK 25 under /usr/lib/jvm");
        TomcatDistribution distribution = GatedTomcat.distribution();
        keystore = GatedTomcat.keystore(distribution);
        ConnectorSpec openssl = GatedTomcat.gated("openssl", keystore, "1000", "1000")
                .attribute("sslImplementationName", OPENSSL_FFM);
        ConnectorSpec opensslGated = GatedTomcat.gated("openssl-gated", keystore, "1000", "1000")
                .attribute("sslImplementationName", AdmissionNioProtocol.GATED_OPENSSL);
        ConnectorSpec opensslOther = GatedTomcat.gated("openssl-other", keystore, "1000", "1000")
                .attribute("sslImplementationName", AdmissionNioProtocol.GATED_OPENSSL);
        ConnectorSpec opensslReloaded = GatedTomcat.gated("openssl-reloaded", keystore, "1000", "1000")
                .attribute("sslImplementationName", AdmissionNioProtocol.GATED_OPENSSL);
        ConnectorSpec opensslCharged = GatedTomcat.gated("openssl-charged", keystore, "1000", "1000")
                .attribute("sslImplementationName", AdmissionNioProtocol.GATED_OPENSSL);
        // Tomcat's virtual-thread executor instead of its (and our shortest-work-first) pool
        ConnectorSpec virtual = GatedTomcat.gated("virtual", keystore, "1000", "1000")
                .attribute("useVirtualThreads", "true");
        ConnectorSpec opensslVirtual = GatedTomcat.gated("openssl-virtual", keystore, "1000", "1000")
                .attribute("sslImplementationName", AdmissionNioProtocol.GATED_OPENSSL)
                .attribute("useVirtualThreads", "true");
        tomcat = GatedTomcat.base(distribution, "jdk25")
                .jdk(jdk25.get())
                .file("webapps/ROOT/thread.jsp", "<%@ page contentType=\"text/plain\" %>"
                        + "virtual=<%= Thread.currentThread().isVirtual() %>\n")
                .serverListener("org.apache.catalina.core.OpenSSLLifecycleListener")
                // The pure-Java path: every hello classified at the channel's first read.
                .connector(GatedTomcat.gated("jsse", keystore, "1000", "1000").attribute("nativePeek", "false"))
                .connector(GatedTomcat.gated("other", keystore, "1000", "1000"))
                .connector(openssl)
                .connector(opensslGated)
                .connector(opensslOther)
                .connector(opensslCharged)
                .connector(opensslReloaded)
                .connector(virtual)
                .connector(opensslVirtual)
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\"/>")
                .build()
                .start();
    }

    @AfterAll
    static void stopTomcat() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    private AdmissionScenarios on(String connector) {
        int port = tomcat.port(connector);
        return new AdmissionScenarios(port, keystore, GatedTomcat.gate(tomcat, port), sessions);
    }

    @Test
    void jsseAdmitsEveryResumptionAndRefusesEveryNewHandshakeWhenTheBudgetIsZero() {
        on("jsse").budgetZeroAdmitsEveryResumptionAndRefusesEveryNewHandshake(true);
    }

    @Test
    void jsseLateGateRefusesForeignTicketsButNotTheTicketDecodingOfJdk25() {
        on("jsse").foreignTicketsAndPsksAreRefusedByTheLateGate(tomcat.port("other"));
    }

    @Test
    void openSslAdmitsEveryResumptionAndRefusesEveryNewHandshakeWhenTheBudgetIsZero() {
        on("openssl").budgetZeroAdmitsEveryResumptionAndRefusesEveryNewHandshake(false);
    }

    @Test
    void gatedOpenSslAdmitsEveryResumptionAndRefusesEveryNewHandshakeWhenTheBudgetIsZero() {
        on("openssl-gated").budgetZeroAdmitsEveryResumptionAndRefusesEveryNewHandshake(false);
    }

    @Test
    void gatedOpenSslLateGateRefusesForeignTicketsAndPsks() {
        on("openssl-gated").foreignTicketsAndPsksAreRefusedByTheLateGate(tomcat.port("openssl-other"));
    }

    @Test
    void gatedOpenSslLateGateChargesForeignTicketsAndPsksWhileTokensRemain() {
        on("openssl-charged").foreignTicketsAndPsksAreChargedByTheLateGate(tomcat.port("openssl-other"));
    }

    @Test
    void onVirtualThreadsJsseAdmitsEveryResumptionRefusesEveryNewHandshakeAndRefusesForeignTicketsLate() {
        assertRunsOnVirtualThreads("virtual");
        on("virtual").budgetZeroAdmitsEveryResumptionAndRefusesEveryNewHandshake(true);
        on("virtual").foreignTicketsAndPsksAreRefusedByTheLateGate(tomcat.port("other"));
    }

    /** The OpenSSL late gate finds its connection by the thread driving the engine: a virtual one here. */
    @Test
    void onVirtualThreadsGatedOpenSslAdmitsEveryResumptionAndRefusesForeignTicketsLate() {
        assertRunsOnVirtualThreads("openssl-virtual");
        on("openssl-virtual").budgetZeroAdmitsEveryResumptionAndRefusesEveryNewHandshake(false);
        on("openssl-virtual").foreignTicketsAndPsksAreRefusedByTheLateGate(tomcat.port("openssl-other"));
    }

    /** A certificate renewed in place: the contexts Tomcat makes anew get the certificate callback too. */
    @Test
    void gatedOpenSslLateGateStillRefusesForeignTicketsAfterReloadSslHostConfigs() throws Exception {
        int port = tomcat.port("openssl-reloaded");
        long contexts = certificatesConfigured(port);
        tomcat.jmx().invoke(GatedTomcat.tomcatMBean(tomcat, "ProtocolHandler", port), "reloadSslHostConfigs",
                new Object[0], new String[0]);
        assertEquals(contexts + 1, certificatesConfigured(port), "Tomcat made the context anew: " + tomcat.tail());
        on("openssl-reloaded").foreignTicketsAndPsksAreRefusedByTheLateGate(tomcat.port("openssl-other"));
    }

    /** Tomcat's "Connector [...], TLS virtual host [...], certificate type [...] configured" lines for this port. */
    private static long certificatesConfigured(int port) {
        return tomcat.catalinaOut().lines()
                .filter(l -> l.contains("-" + port + "], TLS virtual host") && l.contains("configured from")).count();
    }

    private void assertRunsOnVirtualThreads(String connector) {
        OpenSslClient.Result page = OpenSslClient.to(tomcat.port(connector), keystore).path("/thread.jsp").run();
        assertTrue(page.output().contains("virtual=true\n"), page.output());
    }

    @Test
    void gatedOpenSslConnectorSaysItsLateGateIsOnAndTheCallbackNeverFailed() {
        String log = tomcat.catalinaOut();
        assertTrue(log.lines().anyMatch(line -> line.contains("ConnectorGate[https-opensslffm-nio")
                && line.contains("late gate on")), log);
        assertFalse(log.contains("certificate callback"), "no failure in the callback: " + log);
    }

    /**
     * OpenSSL 3 refuses a client's renegotiation by itself (SSL_OP_ALLOW_CLIENT_RENEGOTIATION is off by default): a
     * no_renegotiation alert from its record layer (s_client prints "no renegotiation"), so no full handshake and
     * nothing for the gate to decide.
     */
    @Test
    void gatedOpenSslClientRenegotiationDoesNoFullHandshake() {
        AdmissionScenarios gated = on("openssl-gated");
        gated.budget(1000, 1000);
        Path session = sessions.resolve("reneg.pem");
        assertTrue(gated.client().tls12().saveSession(session).run().fullHandshake());
        gated.budget(0, 0);
        GateMXBean gate = GatedTomcat.gate(tomcat, tomcat.port("openssl-gated"));
        long full = gate.getFullHandshakes();
        long late = gate.getLateRefusals();
        OpenSslClient.Result result = gated.client().tls12().resume(session).renegotiate().run();
        assertTrue(result.output().contains("\nReused, TLSv1.2"), result.output());
        assertTrue(result.output().contains("RENEGOTIATING"), result.output());
        assertFalse(result.renegotiated(), "the renegotiation must not complete: " + result.output());
        assertEquals(full, gate.getFullHandshakes(), "no full handshake was done for it");
        assertEquals(late, gate.getLateRefusals(), "nothing reached the late gate");
    }
}
