package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate in the real Tomcat on the JDK running the build (17), JSSE. One Tomcat for the class. */
class GateIT {

    private static TomcatServer tomcat;
    private static TestKeystore keystore;
    private static int gatePort;
    private static int otherPort;
    private static GateMXBean gate;

    @TempDir
    Path sessions;

    @BeforeAll
    static void startTomcat() {
        TomcatDistribution distribution = GatedTomcat.distribution();
        keystore = GatedTomcat.keystore(distribution);
        tomcat = GatedTomcat.base(distribution, "gate")
                .connector(GatedTomcat.gated("gate", keystore, "1000", "1000"))
                // Another server as far as TLS goes: its own session cache and ticket keys.
                .connector(GatedTomcat.gated("other", keystore, "1000", "1000"))
                .engineXml("<Valve className=\"" + GatedTomcat.VALVE + "\" metricsAllow=\"127\\.0\\.0\\.1\"/>")
                .build()
                .start();
        gatePort = tomcat.port("gate");
        otherPort = tomcat.port("other");
        gate = GatedTomcat.gate(tomcat, gatePort);
    }

    @AfterAll
    static void stopTomcat() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    private void budget(double rate, long burst) {
        gate.setFullHandshakeBurst(burst);
        gate.setMaxFullHandshakesPerSecond(rate);
    }

    private OpenSslClient client() {
        return OpenSslClient.to(gatePort, keystore);
    }

    @Test
    void everyResumptionIsAdmittedAndEveryNewHandshakeRefusedWhenTheBudgetIsZero() throws Exception {
        budget(1000, 1000);
        Path tls13 = sessions.resolve("tls13.pem");
        Path ticket = sessions.resolve("tls12-ticket.pem");
        Path sessionId = sessions.resolve("tls12-id.pem");
        assertTrue(client().tls13().saveSession(tls13).run().fullHandshake());
        assertTrue(client().tls12().saveSession(ticket).run().fullHandshake());
        assertTrue(client().tls12().noTicket().saveSession(sessionId).run().fullHandshake());

        budget(0, 0);
        for (OpenSslClient resumption : new OpenSslClient[] {
                client().tls13().resume(tls13), client().tls12().resume(ticket),
                client().tls12().noTicket().resume(sessionId)}) {
            OpenSslClient.Result result = resumption.run();
            assertTrue(result.reused(), result.output());
            assertEquals(200, result.httpStatus(), result.output());
        }
        long refusedBefore = gate.getNewRefused();
        assertFalse(client().tls13().run().handshakeCompleted());
        assertFalse(client().tls12().run().handshakeCompleted());
        assertEquals(refusedBefore + 2, gate.getNewRefused());
    }

    @Test
    void sessionIdUnknownToThisServerIsRefusedBeforeTheHandshake() {
        Path foreign = sessions.resolve("foreign-id.pem");
        assertTrue(OpenSslClient.to(otherPort, keystore).tls12().noTicket().saveSession(foreign).run().fullHandshake());
        budget(0, 0);
        long lateBefore = gate.getLateRefusals();
        long refusedBefore = gate.getNewRefused();
        OpenSslClient.Result result = client().tls12().noTicket().resume(foreign).run();
        assertFalse(result.handshakeCompleted(), result.output());
        assertEquals(refusedBefore + 1, gate.getNewRefused(), "a cache miss is a new handshake, refused early");
        assertEquals(lateBefore, gate.getLateRefusals());
    }

    @Test
    void foreignTicketsAndPsksAreRefusedByTheLateGate() {
        Path tls13 = sessions.resolve("foreign-13.pem");
        Path ticket = sessions.resolve("foreign-ticket.pem");
        assertTrue(OpenSslClient.to(otherPort, keystore).tls13().saveSession(tls13).run().fullHandshake());
        assertTrue(OpenSslClient.to(otherPort, keystore).tls12().saveSession(ticket).run().fullHandshake());
        budget(0, 0);
        long lateBefore = gate.getLateRefusals();
        long resumedBefore = gate.getResumptionsAdmitted();
        OpenSslClient.Result psk = client().tls13().resume(tls13).run();
        OpenSslClient.Result stale = client().tls12().resume(ticket).run();
        assertFalse(psk.handshakeCompleted(), psk.output());
        assertFalse(stale.handshakeCompleted(), stale.output());
        assertEquals(resumedBefore + 2, gate.getResumptionsAdmitted(), "the early gate believed the client");
        assertEquals(lateBefore + 2, gate.getLateRefusals(), "the key manager was asked for a certificate: refused");
    }

    @Test
    void truthCountersFollowWhatTheClientSaw() throws Exception {
        budget(1000, 1000);
        long full = gate.getFullHandshakes();
        long resumed = gate.getResumedHandshakes();
        Path tls13 = sessions.resolve("truth-13.pem");
        Path tls12 = sessions.resolve("truth-12.pem");
        assertTrue(client().tls13().saveSession(tls13).run().fullHandshake());
        assertTrue(client().tls12().saveSession(tls12).run().fullHandshake());
        assertTrue(client().tls13().resume(tls13).run().reused());
        assertTrue(client().tls12().resume(tls12).run().reused());
        assertTrue(Files.size(tls13) > 0);
        assertEquals(full + 2, gate.getFullHandshakes());
        assertEquals(resumed + 2, gate.getResumedHandshakes());
    }

}
