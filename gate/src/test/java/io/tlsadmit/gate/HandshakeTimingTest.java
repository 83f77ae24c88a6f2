package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.classifier.Verdict;
import org.junit.jupiter.api.Test;

/** Which handshakes' CPU a connection times ({@link ConnectionAdmission#timesHandshakeCpu}). */
class HandshakeTimingTest {

    private final ConnectorGate gate = new ConnectorGate("test", new StaticBudget(0, 0), RefuseAction.CLOSE,
            RenegotiationPolicy.REFUSE, 1);

    private ConnectionAdmission connection() {
        ConnectionAdmission connection = new ConnectionAdmission(gate);
        connection.reset(1, 1, 1);
        return connection;
    }

    @Test
    void everyStepBeforeTheHelloIsClassifiedAndEveryNewClientsHandshakeIsTimed() {
        for (int i = 0; i < 1_000; i++) {
            ConnectionAdmission connection = connection();
            assertTrue(connection.timesHandshakeCpu(), "undecided: the first step is timed");
            connection.addHandshakeCpu(300_000);
            connection.decided(Verdict.NEW, Decision.ADMITTED, true);
            assertTrue(connection.timesHandshakeCpu());
            connection.addHandshakeCpu(5_000_000);
            assertEquals(5_300_000, connection.handshakeCpuNanos());
        }
    }

    @Test
    void theFirstAndEveryEighthOfferedResumptionIsTimedAndTheOthersRecordNoPartialCost() {
        for (int i = 0; i < 64; i++) {
            ConnectionAdmission connection = connection();
            assertTrue(connection.timesHandshakeCpu());
            connection.addHandshakeCpu(300_000); // the step that read and classified the hello
            connection.decided(Verdict.RESUME_SESSION_ID, Decision.ADMITTED, false);
            boolean timesRest = connection.timesHandshakeCpu();
            assertEquals(i % ConnectionAdmission.RESUMPTION_TIMING_SAMPLE == 0, timesRest, "resumption " + i);
            assertEquals(timesRest, connection.timesHandshakeCpu(), "decided once per connection");
            if (timesRest) {
                connection.addHandshakeCpu(200_000);
                assertEquals(500_000, connection.handshakeCpuNanos(), "a timed one keeps its first step");
            } else {
                assertEquals(0, connection.handshakeCpuNanos(), "unknown (0), not the first step alone");
            }
            // a new client in between is timed and does not count as a resumption
            ConnectionAdmission other = connection();
            other.decided(Verdict.NEW, Decision.ADMITTED, true);
            assertTrue(other.timesHandshakeCpu());
        }
    }

    @Test
    void aReusedChannelDecidesAgainForItsNextConnection() {
        ConnectionAdmission connection = connection();
        connection.decided(Verdict.RESUME_TICKET, Decision.ADMITTED, false);
        assertTrue(connection.timesHandshakeCpu(), "the connector's first resumption");
        connection.reset(2, 1, 1);
        connection.decided(Verdict.RESUME_TICKET, Decision.ADMITTED, false);
        assertFalse(connection.timesHandshakeCpu(), "its second");
        connection.reset(3, 1, 1);
        connection.decided(Verdict.NEW, Decision.ADMITTED, true);
        assertTrue(connection.timesHandshakeCpu());
    }
}
