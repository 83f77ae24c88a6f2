package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.classifier.Verdict;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConnectorGateTest {

    private final AtomicLong clock = new AtomicLong();
    private final StaticBudget budget = new StaticBudget(0, 0, clock::get);
    private final ConnectorGate gate = new ConnectorGate("test", budget, RefuseAction.CLOSE);

    /** The bucket refills from empty when its rate rises from 0: let a second pass to fill it. */
    private void open(double rate, long burst) {
        budget.setBurst(burst);
        budget.setFullHandshakesPerSecond(rate);
        clock.addAndGet(1_000_000_000L);
    }

    private ConnectionAdmission connection() {
        ConnectionAdmission connection = new ConnectionAdmission(gate);
        connection.reset(clock.get());
        return connection;
    }

    @Test
    void resumptionsAreAdmittedWhenTheBudgetIsEmpty() {
        for (Verdict verdict : new Verdict[] {Verdict.RESUME_PSK, Verdict.RESUME_TICKET, Verdict.RESUME_SESSION_ID}) {
            assertEquals(Decision.ADMITTED, gate.decide(connection(), verdict, clock.get()));
            assertEquals(1, gate.counters().connections(verdict, Decision.ADMITTED));
        }
    }

    @Test
    void aNewHandshakeTakesATokenOrIsRefused() {
        assertEquals(Decision.REFUSED, gate.decide(connection(), Verdict.NEW, clock.get()));
        open(1, 1);
        ConnectionAdmission admitted = connection();
        assertEquals(Decision.ADMITTED, gate.decide(admitted, Verdict.NEW, clock.get()));
        assertTrue(admitted.isFullHandshakeCharged());
        assertEquals(Decision.REFUSED, gate.decide(connection(), Verdict.NEW, clock.get()));
        assertEquals(2, gate.counters().connections(Verdict.NEW, Decision.REFUSED));
    }

    @Test
    void whatIsNotAHandshakeIsRefusedWhateverTheBudget() {
        open(1000, 1000);
        for (Verdict verdict : new Verdict[] {Verdict.NOT_TLS, Verdict.SSLV2, Verdict.MALFORMED}) {
            assertEquals(Decision.REFUSED, gate.decide(connection(), verdict, clock.get()));
        }
        assertEquals(1000, budget.availableTokens(), 1e-9, "no token spent on them");
    }

    @Test
    void theLateGateChargesAPredictedResumptionOnceAndRefusesWhenEmpty() {
        ConnectionAdmission stale = connection();
        gate.decide(stale, Verdict.RESUME_TICKET, clock.get());
        assertFalse(gate.chargeFullHandshake(stale));
        assertFalse(gate.chargeFullHandshake(stale), "asked again for another key type: still refused");
        assertEquals(1, gate.counters().lateRefusals(Verdict.RESUME_TICKET));

        open(1, 1);
        ConnectionAdmission charged = connection();
        gate.decide(charged, Verdict.RESUME_PSK, clock.get());
        assertTrue(gate.chargeFullHandshake(charged));
        assertTrue(gate.chargeFullHandshake(charged), "charged once, not per call");
        assertEquals(0, budget.availableTokens(), 1e-9);
    }

    @Test
    void aNewHandshakeAdmittedEarlyIsNotChargedAgainLate() {
        open(1, 1);
        ConnectionAdmission connection = connection();
        gate.decide(connection, Verdict.NEW, clock.get());
        assertTrue(gate.chargeFullHandshake(connection));
        assertEquals(1, budget.bucket().grantedCount());
    }

    @Test
    void truthThatDiffersFromThePredictionIsAMisprediction() {
        ConnectionAdmission stale = connection();
        gate.decide(stale, Verdict.RESUME_TICKET, clock.get());
        gate.handshakeCompleted(stale, HandshakeKind.FULL, 0x0303);
        gate.handshakeCompleted(stale, HandshakeKind.FULL, 0x0303);
        ConnectionAdmission resumed = connection();
        gate.decide(resumed, Verdict.RESUME_PSK, clock.get());
        gate.handshakeCompleted(resumed, HandshakeKind.RESUMED, 0x0304);
        assertEquals(1, gate.counters().mispredictions(Verdict.RESUME_TICKET));
        assertEquals(0, gate.counters().mispredictions(Verdict.RESUME_PSK));
        assertEquals(1, gate.counters().handshakes(HandshakeKind.FULL, 0x0303), "recorded once per handshake");
        assertEquals(1, gate.counters().handshakes(HandshakeKind.RESUMED, 0x0304));
    }

    @Test
    void aClientThatLeavesBeforeItsHelloIsCountedIncomplete() {
        ConnectionAdmission silent = connection();
        gate.abandoned(silent);
        assertTrue(silent.isDecided());
        assertEquals(1, gate.counters().connections(Verdict.INCOMPLETE, Decision.REFUSED));
    }
}
