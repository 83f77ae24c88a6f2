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

    /** A new client's connection whose first step took 3 ms. */
    private ConnectionAdmission newClientAfterFirstStep() {
        ConnectionAdmission connection = new ConnectionAdmission(gate);
        connection.reset(1, 1, 1);
        assertTrue(connection.timesHandshakeCpu(), "before the hello is classified");
        connection.decided(Verdict.NEW, Decision.ADMITTED, true);
        assertTrue(connection.timesHandshakeCpu(), "before the server's first flight");
        connection.addHandshakeStep(3_000_000, 3_000_000);
        return connection;
    }

    private static final long MS = 1_000_000;

    /** A connection accepted at {@code acceptNanos} whose hello offered a resumption ({@code offered}), as decided. */
    private ConnectionAdmission offering(Verdict offered, long acceptNanos) {
        ConnectionAdmission connection = new ConnectionAdmission(gate);
        connection.reset(acceptNanos, 1, 1);
        assertTrue(connection.timesHandshakeCpu(), "before the hello is classified");
        connection.decided(offered, Decision.ADMITTED, false);
        return connection;
    }

    @Test
    void everyNewClientsFullHandshakeIsTimed() {
        for (int i = 0; i < 100; i++) {
            ConnectionAdmission connection = newClientAfterFirstStep();
            connection.truth(HandshakeKind.FULL, TLS12);
            assertTrue(connection.timesHandshakeCpu(), "handshake " + i);
            connection.addHandshakeStep(400_000, 400_000);
            assertEquals(3_400_000, connection.handshakeCpuNanos());
        }
    }

    @Test
    void theFirstResumptionOfferAndThenOneAnIntervalLaterAreSampledAtTheHelloWhateverTheServerMakesOfIt() {
        Verdict[] offers = {Verdict.RESUME_PSK, Verdict.RESUME_TICKET, Verdict.RESUME_SESSION_ID};
        // one offer every 25 ms: the interval is 100 ms, so offers 0, 4, 8, ... are timed
        long gap = ConnectionAdmission.RESUMPTION_TIMING_INTERVAL_NANOS / 4;
        for (int i = 0; i < 64; i++) {
            ConnectionAdmission connection = offering(offers[i % offers.length], 5 * MS + i * gap);
            boolean timed = connection.timesHandshakeCpu();
            assertEquals(i % 4 == 0, timed,
                    "offer " + i + ": decided before its first step, so an unsampled one reads no clock at all");
            long firstStep = timed ? 3_000_000 : 0;
            connection.addHandshakeStep(firstStep, firstStep);
            // every third offer is one the server cannot resume (a ticket from before a restart): a full handshake
            connection.truth(i % 3 == 0 ? HandshakeKind.FULL : HandshakeKind.RESUMED, TLS12);
            assertEquals(timed, connection.timesHandshakeCpu(), "the server's flight does not decide again");
            if (timed) {
                connection.addHandshakeStep(200_000, 200_000);
                assertEquals(3_200_000, connection.handshakeCpuNanos(), "a timed one keeps its first step");
            } else {
                assertEquals(0, connection.handshakeCpuNanos(),
                        "unknown (0): the budget counts it at the measured cost");
            }
            // a new client's handshake in between is timed and does not take a place in the sample
            ConnectionAdmission other = newClientAfterFirstStep();
            other.truth(HandshakeKind.FULL, TLS12);
            assertTrue(other.timesHandshakeCpu());
        }
    }

    @Test
    void aHelloThatOfferedNothingAndWasResumedAnywayIsSampledAtTheServersFlight() {
        ConnectionAdmission first = newClientAfterFirstStep();
        first.truth(HandshakeKind.RESUMED, TLS12);
        assertTrue(first.timesHandshakeCpu(), "the connector's first resumption");
        assertEquals(3_000_000, first.handshakeCpuNanos());
        ConnectionAdmission second = newClientAfterFirstStep();
        second.truth(HandshakeKind.RESUMED, TLS12);
        assertFalse(second.timesHandshakeCpu(), "its second, accepted at the same moment");
        assertEquals(0, second.handshakeCpuNanos(), "unknown (0), not the first step alone");
    }

    @Test
    void aReusedChannelDecidesAgainForItsNextConnection() {
        ConnectionAdmission connection = offering(Verdict.RESUME_TICKET, 1);
        assertTrue(connection.timesHandshakeCpu(), "the connector's first resumption offer");
        connection.reset(2, 1, 1);
        connection.decided(Verdict.RESUME_TICKET, Decision.ADMITTED, false);
        assertFalse(connection.timesHandshakeCpu(), "its second, within the interval");
        connection.reset(2 + ConnectionAdmission.RESUMPTION_TIMING_INTERVAL_NANOS, 1, 1);
        connection.decided(Verdict.RESUME_TICKET, Decision.ADMITTED, false);
        assertTrue(connection.timesHandshakeCpu(), "its third, an interval after the first");
        connection.reset(3, 1, 1);
        assertTrue(connection.timesHandshakeCpu(), "a new connection: undecided again");
        connection.truth(HandshakeKind.FULL, TLS12);
        assertTrue(connection.timesHandshakeCpu());
    }

    @Test
    void aSessionIdTheCacheHoldsIsSampledAtTheHelloAndAnUnsampledOneIsNeverTimed() {
        long gap = ConnectionAdmission.RESUMPTION_TIMING_INTERVAL_NANOS / 8;
        for (int i = 0; i < 64; i++) {
            ConnectionAdmission connection = new ConnectionAdmission(gate);
            connection.reset(i * gap, 1, 1);
            connection.sessionIdVerified();
            connection.decided(Verdict.RESUME_SESSION_ID, Decision.ADMITTED, false);
            boolean timed = connection.timesHandshakeCpu();
            assertEquals(i % 8 == 0, timed,
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
        second.addHandshakeStep(50_000, 50_000);
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

    @Test
    void everyTimedStepCarriesItsWallTimeWhicheverThreadRanIt() {
        ConnectionAdmission connection = new ConnectionAdmission(gate);
        connection.reset(1, 1, 1);
        connection.decided(Verdict.NEW, Decision.ADMITTED, true);
        connection.addHandshakeStep(2 * MS, 5 * MS);
        connection.addHandshakeStep(3 * MS, 2 * MS); // the clocks' grains: never less wall time than CPU time
        assertEquals(5 * MS, connection.handshakeCpuNanos());
        assertEquals(8 * MS, connection.handshakeWallNanos());
        connection.addHandshakeStep(MS, 3 * MS); // a delegated task timed on the low-priority thread that ran it
        assertEquals(6 * MS, connection.handshakeCpuNanos());
        assertEquals(11 * MS, connection.handshakeWallNanos());

        connection.reset(2, 1, 1);
        connection.decided(Verdict.NEW, Decision.ADMITTED, true);
        connection.addHandshakeStep(2 * MS, 3 * MS);
        assertEquals(3 * MS, connection.handshakeWallNanos(), "the next connection on the channel starts afresh");
    }
}
