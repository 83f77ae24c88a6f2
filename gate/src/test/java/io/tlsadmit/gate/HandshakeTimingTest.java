package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.classifier.Verdict;
import org.junit.jupiter.api.Test;

/** Which handshakes' CPU a connection times ({@link ConnectionAdmission#timesHandshakeCpu}). */
class HandshakeTimingTest {

    private static final int TLS12 = 0x0303;

    private final ConnectorGate gate = new ConnectorGate("test", new StaticBudget(0, 0), RefuseAction.CLOSE,
            RenegotiationPolicy.REFUSE, 1);

    /** A connection whose hello was classified as {@code verdict} and whose first step took 3 ms. */
    private ConnectionAdmission afterFirstStep(Verdict verdict) {
        ConnectionAdmission connection = new ConnectionAdmission(gate);
        connection.reset(1, 1, 1);
        assertTrue(connection.timesHandshakeCpu(), "before the hello is classified");
        connection.decided(verdict, Decision.ADMITTED, verdict == Verdict.NEW);
        assertTrue(connection.timesHandshakeCpu(), "before the server's first flight");
        connection.addHandshakeCpu(3_000_000);
        return connection;
    }

    @Test
    void everyFullHandshakeIsTimedWhateverTheHelloOffered() {
        for (int i = 0; i < 100; i++) {
            for (Verdict offered : new Verdict[] {Verdict.NEW, Verdict.RESUME_TICKET, Verdict.RESUME_SESSION_ID}) {
                ConnectionAdmission connection = afterFirstStep(offered);
                connection.truth(HandshakeKind.FULL, TLS12); // a ticket from before a restart: a full handshake
                assertTrue(connection.timesHandshakeCpu(), offered + ", handshake " + i);
                connection.addHandshakeCpu(400_000);
                assertEquals(3_400_000, connection.handshakeCpuNanos());
            }
        }
    }

    @Test
    void theFirstAndEveryEighthResumptionIsTimedAndTheOthersRecordNoPartialCost() {
        for (int i = 0; i < 64; i++) {
            ConnectionAdmission connection = afterFirstStep(Verdict.RESUME_SESSION_ID);
            connection.truth(HandshakeKind.RESUMED, TLS12);
            boolean timesRest = connection.timesHandshakeCpu();
            assertEquals(i % ConnectionAdmission.RESUMPTION_TIMING_SAMPLE == 0, timesRest, "resumption " + i);
            assertEquals(timesRest, connection.timesHandshakeCpu(), "decided once per connection");
            if (timesRest) {
                connection.addHandshakeCpu(200_000);
                assertEquals(3_200_000, connection.handshakeCpuNanos(), "a timed one keeps its first step");
            } else {
                assertEquals(0, connection.handshakeCpuNanos(), "unknown (0), not the first step alone");
            }
            // a full handshake in between is timed and does not count as a resumption
            ConnectionAdmission other = afterFirstStep(Verdict.NEW);
            other.truth(HandshakeKind.FULL, TLS12);
            assertTrue(other.timesHandshakeCpu());
        }
    }

    @Test
    void aReusedChannelDecidesAgainForItsNextConnection() {
        ConnectionAdmission connection = afterFirstStep(Verdict.RESUME_TICKET);
        connection.truth(HandshakeKind.RESUMED, TLS12);
        assertTrue(connection.timesHandshakeCpu(), "the connector's first resumption");
        connection.reset(2, 1, 1);
        connection.decided(Verdict.RESUME_TICKET, Decision.ADMITTED, false);
        connection.truth(HandshakeKind.RESUMED, TLS12);
        assertFalse(connection.timesHandshakeCpu(), "its second");
        connection.reset(3, 1, 1);
        assertTrue(connection.timesHandshakeCpu(), "a new connection: undecided again");
        connection.truth(HandshakeKind.FULL, TLS12);
        assertTrue(connection.timesHandshakeCpu());
    }

    @Test
    void aSessionIdTheCacheHoldsIsSampledAtTheHelloAndAnUnsampledOneIsNeverTimed() {
        for (int i = 0; i < 64; i++) {
            ConnectionAdmission connection = new ConnectionAdmission(gate);
            connection.reset(1, 1, 1);
            connection.sessionIdVerified();
            connection.decided(Verdict.RESUME_SESSION_ID, Decision.ADMITTED, false);
            boolean timed = connection.timesHandshakeCpu();
            assertEquals(i % ConnectionAdmission.RESUMPTION_TIMING_SAMPLE == 0, timed,
                    "resumption " + i + ": sampled before the first step, which is then timed or not");
            connection.truth(HandshakeKind.RESUMED, TLS12);
            assertEquals(timed, connection.timesHandshakeCpu(), "the server's flight does not decide again");
        }
    }

    @Test
    void aStepTimedBeforeTheSessionIdWasVerifiedIsForgottenWhenTheSampleSaysNo() {
        ConnectionAdmission first = new ConnectionAdmission(gate);
        first.reset(1, 1, 1);
        first.sessionIdVerified();
        assertTrue(first.timesHandshakeCpu(), "the connector's first resumption is sampled");
        ConnectionAdmission second = new ConnectionAdmission(gate);
        second.reset(2, 1, 1);
        assertTrue(second.timesHandshakeCpu(), "before the hello is classified");
        second.addHandshakeCpu(50_000);
        second.sessionIdVerified();
        assertFalse(second.timesHandshakeCpu());
        assertEquals(0, second.handshakeCpuNanos(), "unknown (0), not the part timed before");
    }

    @Test
    void aVerifiedSessionIdTheEngineDidNotResumeIsLeftUntimedNotPartlyTimed() {
        // The first resumption is sampled; the second, not sampled, finds its session evicted in between.
        ConnectionAdmission first = new ConnectionAdmission(gate);
        first.reset(1, 1, 1);
        first.sessionIdVerified();
        assertTrue(first.timesHandshakeCpu());
        ConnectionAdmission evicted = new ConnectionAdmission(gate);
        evicted.reset(2, 1, 1);
        evicted.sessionIdVerified();
        assertFalse(evicted.timesHandshakeCpu());
        evicted.truth(HandshakeKind.FULL, TLS12);
        assertFalse(evicted.timesHandshakeCpu(), "no part of it was timed: its cost is unknown (0), not a fraction");
        assertEquals(0, evicted.handshakeCpuNanos());
    }
}
