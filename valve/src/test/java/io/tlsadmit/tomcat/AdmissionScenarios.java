package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Client-visible admission behaviour, shared by the tests of each JDK and TLS engine. */
final class AdmissionScenarios {

    private final int port;
    private final TestKeystore keystore;
    private final GateMXBean gate;
    private final Path sessions;

    AdmissionScenarios(int port, TestKeystore keystore, GateMXBean gate, Path sessions) {
        this.port = port;
        this.keystore = keystore;
        this.gate = gate;
        this.sessions = sessions;
    }

    OpenSslClient client() {
        return OpenSslClient.to(port, keystore);
    }

    void budget(double rate, long burst) {
        GatedTomcat.budget(gate, rate, burst);
    }

    /**
     * Sessions of every kind are made while the budget is open; at budget 0 each resumes and is served,
     * and every new handshake is refused before the handshake. The truth counters agree with s_client.
     *
     * @param sessionIds whether the engine resumes TLS 1.2 by session id (JSSE does; Tomcat's OpenSSL
     *                   context issues no session ids, only tickets)
     */
    void budgetZeroAdmitsEveryResumptionAndRefusesEveryNewHandshake(boolean sessionIds) {
        budget(1000, 1000);
        Path tls13 = sessions.resolve("tls13.pem");
        Path ticket = sessions.resolve("tls12-ticket.pem");
        Path sessionId = sessions.resolve("tls12-id.pem");
        long full = gate.getFullHandshakes();
        List<OpenSslClient> resumptions = new ArrayList<>();
        assertFullHandshake(client().tls13().saveSession(tls13).run());
        resumptions.add(client().tls13().resume(tls13));
        assertFullHandshake(client().tls12().saveSession(ticket).run());
        resumptions.add(client().tls12().resume(ticket));
        if (sessionIds) {
            assertFullHandshake(client().tls12().noTicket().saveSession(sessionId).run());
            resumptions.add(client().tls12().noTicket().resume(sessionId));
        }
        int sessions = resumptions.size();
        assertEquals(full + sessions, gate.getFullHandshakes(), "truth: one full handshake per session");

        budget(0, 0);
        long resumed = gate.getResumedHandshakes();
        for (OpenSslClient resumption : resumptions) {
            OpenSslClient.Result result = resumption.run();
            assertTrue(result.reused(), result.output());
            assertEquals(200, result.httpStatus(), result.output());
        }
        assertEquals(resumed + sessions, gate.getResumedHandshakes(), "truth: every session resumed");
        long refused = gate.getNewRefused();
        OpenSslClient.Result new13 = client().tls13().run();
        OpenSslClient.Result new12 = client().tls12().run();
        assertFalse(new13.handshakeCompleted(), new13.output());
        assertFalse(new12.handshakeCompleted(), new12.output());
        assertEquals(0, new13.handshakeBytesRead(), "refused before the server sent anything");
        assertEquals(refused + 2, gate.getNewRefused());
        assertEquals(full + sessions, gate.getFullHandshakes(), "no full handshake at budget 0");
    }

    /** Tickets and PSKs another server issued look like resumptions, but need a full handshake: refused late. */
    void foreignTicketsAndPsksAreRefusedByTheLateGate(int otherPort) {
        Path tls13 = sessions.resolve("foreign-13.pem");
        Path ticket = sessions.resolve("foreign-ticket.pem");
        assertFullHandshake(OpenSslClient.to(otherPort, keystore).tls13().saveSession(tls13).run());
        assertFullHandshake(OpenSslClient.to(otherPort, keystore).tls12().saveSession(ticket).run());
        budget(0, 0);
        long late = gate.getLateRefusals();
        long resumptions = gate.getResumptionsAdmitted();
        long full = gate.getFullHandshakes();
        OpenSslClient.Result psk = client().tls13().resume(tls13).run();
        OpenSslClient.Result stale = client().tls12().resume(ticket).run();
        assertFalse(psk.handshakeCompleted(), psk.output());
        assertFalse(stale.handshakeCompleted(), stale.output());
        assertEquals(resumptions + 2, gate.getResumptionsAdmitted(), "the early gate believed the client");
        assertEquals(late + 2, gate.getLateRefusals(), "the key manager was asked for a certificate: refused");
        assertEquals(full, gate.getFullHandshakes());
    }

    /**
     * While the budget has tokens, another server's ticket and PSK turn into full handshakes that the late gate
     * charges (one token each); once the tokens are spent, the next one is refused there. False offers make their
     * source distrusted after three: run on a connector of its own (distrust is per connector).
     */
    void foreignTicketsAndPsksAreChargedByTheLateGate(int otherPort) {
        Path tls13 = sessions.resolve("charged-13.pem");
        Path ticket = sessions.resolve("charged-ticket.pem");
        assertFullHandshake(OpenSslClient.to(otherPort, keystore).tls13().saveSession(tls13).run());
        assertFullHandshake(OpenSslClient.to(otherPort, keystore).tls12().saveSession(ticket).run());
        budget(1000, 2);
        while (gate.getAvailableTokens() < 2) {
            Thread.onSpinWait(); // refilled within milliseconds at 1000/s
        }
        budget(0.001, 2); // the two tokens stay; the next comes in 1000 s
        long late = gate.getLateRefusals();
        long full = gate.getFullHandshakes();
        OpenSslClient.Result psk = client().tls13().resume(tls13).run();
        OpenSslClient.Result stale = client().tls12().resume(ticket).run();
        assertFullHandshake(psk);
        assertFullHandshake(stale);
        assertEquals(200, psk.httpStatus(), psk.output());
        assertEquals(full + 2, gate.getFullHandshakes(), "both served as full handshakes");
        assertEquals(late, gate.getLateRefusals());
        assertTrue(gate.getAvailableTokens() < 1, "each took its token: " + gate.getAvailableTokens());
        OpenSslClient.Result third = client().tls13().resume(tls13).run();
        assertFalse(third.handshakeCompleted(), third.output());
        assertEquals(late + 1, gate.getLateRefusals(), "no token left: refused at the certificate");
    }

    private static void assertFullHandshake(OpenSslClient.Result result) {
        assertTrue(result.fullHandshake(), result.output());
        assertEquals(200, result.httpStatus(), result.output());
    }
}
