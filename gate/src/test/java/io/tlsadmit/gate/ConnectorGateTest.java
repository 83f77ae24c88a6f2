package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.gate.source.SourcePrefix;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConnectorGateTest {

    private final AtomicLong clock = new AtomicLong();
    private final StaticBudget budget = new StaticBudget(0, 0, clock::get);
    private final ConnectorGate gate = new ConnectorGate("test", budget, RefuseAction.CLOSE);
    /** 192.0.2.0/24 */
    private static final long SOURCE = SourcePrefix.of(new InetSocketAddress("192.0.2.7", 1));
    private static final long OTHER_SOURCE = SourcePrefix.of(new InetSocketAddress("198.51.100.7", 1));
    private static final long HOST = SourcePrefix.host(new InetSocketAddress("192.0.2.7", 1));
    private static final long OTHER_HOST = SourcePrefix.host(new InetSocketAddress("198.51.100.7", 1));

    /** The bucket refills from empty when its rate rises from 0: let a second pass to fill it. */
    private void open(double rate, long burst) {
        budget.setBurst(burst);
        budget.setFullHandshakesPerSecond(rate);
        clock.addAndGet(1_000_000_000L);
    }

    private ConnectionAdmission connection() {
        ConnectionAdmission connection = new ConnectionAdmission(gate);
        connection.reset(clock.get(), SOURCE, HOST);
        return connection;
    }

    @Test
    void resumptionsAreAdmittedWhenTheBudgetIsEmpty() {
        for (Verdict verdict : new Verdict[] {Verdict.RESUME_PSK, Verdict.RESUME_TICKET, Verdict.RESUME_SESSION_ID}) {
            assertEquals(Decision.ADMITTED, gate.decide(connection(), verdict, clock.get(), true));
            assertEquals(1, gate.counters().connections(verdict, Decision.ADMITTED));
        }
    }

    @Test
    void aNewHandshakeTakesATokenOrIsRefused() {
        assertEquals(Decision.REFUSED, gate.decide(connection(), Verdict.NEW, clock.get(), true));
        open(1, 1);
        ConnectionAdmission admitted = connection();
        assertEquals(Decision.ADMITTED, gate.decide(admitted, Verdict.NEW, clock.get(), true));
        assertTrue(admitted.isFullHandshakeCharged());
        ConnectionAdmission otherUser = new ConnectionAdmission(gate);
        otherUser.reset(clock.get(), OTHER_SOURCE, OTHER_HOST);
        assertEquals(Decision.REFUSED, gate.decide(otherUser, Verdict.NEW, clock.get(), true));
        assertEquals(2, gate.counters().connections(Verdict.NEW, Decision.REFUSED));
    }

    @Test
    void whatIsNotAHandshakeIsRefusedWhateverTheBudget() {
        open(1000, 1000);
        for (Verdict verdict : new Verdict[] {Verdict.NOT_TLS, Verdict.SSLV2, Verdict.MALFORMED}) {
            assertEquals(Decision.REFUSED, gate.decide(connection(), verdict, clock.get(), true));
        }
        assertEquals(1000, budget.availableTokens(), 1e-9, "no token spent on them");
    }

    @Test
    void theLateGateChargesAPredictedResumptionOnceAndRefusesWhenEmpty() {
        ConnectionAdmission stale = connection();
        gate.decide(stale, Verdict.RESUME_TICKET, clock.get(), true);
        assertFalse(gate.chargeFullHandshake(stale, clock.get()));
        assertFalse(gate.chargeFullHandshake(stale, clock.get()), "asked again for another key type: still refused");
        assertEquals(1, gate.counters().lateRefusals(Verdict.RESUME_TICKET));

        open(1, 1);
        ConnectionAdmission charged = connection();
        gate.decide(charged, Verdict.RESUME_PSK, clock.get(), true);
        assertTrue(gate.chargeFullHandshake(charged, clock.get()));
        assertTrue(gate.chargeFullHandshake(charged, clock.get()), "charged once, not per call");
        assertEquals(0, budget.availableTokens(), 1e-9);
    }

    @Test
    void aNewHandshakeAdmittedEarlyIsNotChargedAgainLate() {
        open(1, 1);
        ConnectionAdmission connection = connection();
        gate.decide(connection, Verdict.NEW, clock.get(), true);
        assertTrue(gate.chargeFullHandshake(connection, clock.get()));
        assertEquals(1, budget.bucket().grantedCount());
    }

    @Test
    void truthThatDiffersFromThePredictionIsAMisprediction() {
        ConnectionAdmission stale = connection();
        gate.decide(stale, Verdict.RESUME_TICKET, clock.get(), true);
        gate.serverFlight(stale, HandshakeKind.FULL, 0x0303, clock.get());
        gate.serverFlight(stale, HandshakeKind.FULL, 0x0303, clock.get());
        ConnectionAdmission resumed = connection();
        gate.decide(resumed, Verdict.RESUME_PSK, clock.get(), true);
        gate.serverFlight(resumed, HandshakeKind.RESUMED, 0x0304, clock.get());
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

    @Test
    void anUnverifiedOfferMayNotCreateASessionOnlyWhenNoTokenIsLeftForIt() {
        ConnectionAdmission poor = connection();
        gate.decide(poor, Verdict.RESUME_PSK, clock.get(), true);
        assertTrue(gate.blockNewSession(poor), "budget empty: a false offer must fail before the key exchange");
        open(1, 1);
        ConnectionAdmission funded = connection();
        gate.decide(funded, Verdict.RESUME_TICKET, clock.get(), true);
        assertFalse(gate.blockNewSession(funded), "a token is there: a stale ticket may still get its full handshake");
        ConnectionAdmission sessionId = connection();
        gate.decide(sessionId, Verdict.RESUME_SESSION_ID, clock.get(), true);
        assertFalse(gate.blockNewSession(sessionId), "session ids were verified against the cache already");
        assertEquals(1, budget.availableTokens(), 1e-9, "deciding took no token");

        gate.refusedWithoutNewSession(poor, clock.get());
        assertEquals(1, gate.counters().lateRefusals(Verdict.RESUME_PSK, LateRefusal.NEW_SESSION));
        assertTrue(poor.isRefusedLate());
    }

    @Test
    void aSourceThatKeepsOfferingFalseResumptionsIsDistrustedUntilItsScoreDecays() {
        open(1000, 1000);
        for (int i = 0; i < 3; i++) {
            ConnectionAdmission forged = connection();
            gate.decide(forged, Verdict.RESUME_PSK, clock.get(), true);
            assertTrue(gate.chargeFullHandshake(forged, clock.get()), "tokens there: the full handshake is paid for");
        }
        ConnectionAdmission next = connection();
        assertEquals(Decision.ADMITTED, gate.decide(next, Verdict.RESUME_PSK, clock.get(), true));
        assertTrue(next.isDistrusted());
        assertTrue(gate.blockNewSession(next), "distrusted: no session without a valid ticket, even with tokens");
        assertEquals(1, gate.counters().distrustedOffers(Decision.ADMITTED));

        ConnectionAdmission neighbour = new ConnectionAdmission(gate);
        neighbour.reset(clock.get(), OTHER_SOURCE, OTHER_HOST);
        gate.decide(neighbour, Verdict.RESUME_PSK, clock.get(), true);
        assertFalse(neighbour.isDistrusted(), "another /24 is not affected");

        clock.addAndGet(3 * ConnectorGate.DISTRUST_HALF_LIFE_NANOS);
        ConnectionAdmission later = connection();
        gate.decide(later, Verdict.RESUME_PSK, clock.get(), true);
        assertFalse(later.isDistrusted(), "three half-lives later the source is trusted again");
    }

    @Test
    void withoutALateGateADistrustedOfferIsChargedLikeANewHandshake() {
        for (int i = 0; i < 3; i++) {
            ConnectionAdmission forged = connection();
            gate.decide(forged, Verdict.RESUME_TICKET, clock.get(), true);
            gate.chargeFullHandshake(forged, clock.get());
        }
        assertEquals(Decision.REFUSED, gate.decide(connection(), Verdict.RESUME_TICKET, clock.get(), false));
        assertEquals(1, gate.counters().distrustedOffers(Decision.REFUSED));
        assertEquals(1, gate.counters().connections(Verdict.RESUME_TICKET, Decision.REFUSED));
    }

    @Test
    void withoutALateGateAFalseOfferFoundFromTheTruthIsChargedOnCreditAndItsSourceDistrusted() {
        open(1, 1);
        for (int i = 0; i < 3; i++) {
            ConnectionAdmission forged = connection();
            assertEquals(Decision.ADMITTED, gate.decide(forged, Verdict.RESUME_PSK, clock.get(), false));
            gate.serverFlight(forged, HandshakeKind.FULL, 0x0304, clock.get());
            gate.uncheckedFullHandshake(forged, clock.get());
            gate.uncheckedFullHandshake(forged, clock.get()); // once per handshake
        }
        assertEquals(-2, budget.availableTokens(), 1e-9);
        assertEquals(Decision.REFUSED, gate.decide(connection(), Verdict.RESUME_PSK, clock.get(), false));
        ConnectionAdmission genuine = connection();
        genuine.reset(clock.get(), OTHER_SOURCE, OTHER_HOST);
        assertEquals(Decision.ADMITTED, gate.decide(genuine, Verdict.RESUME_PSK, clock.get(), false));
        gate.serverFlight(genuine, HandshakeKind.RESUMED, 0x0304, clock.get());
        assertEquals(-2, budget.availableTokens(), 1e-9);
    }

    @Test
    void aClientRenegotiationIsRefusedByDefault() {
        ConnectionAdmission connection = connection();
        gate.decide(connection, Verdict.RESUME_TICKET, clock.get(), true);
        assertFalse(gate.renegotiation(connection, Initiator.CLIENT));
        assertEquals(1, gate.counters().renegotiations(Initiator.CLIENT, Decision.REFUSED));
        assertTrue(gate.renegotiation(connection, Initiator.SERVER), "the server's own (a client certificate) goes on");
    }

    @Test
    void anAllowedRenegotiationIsAFullHandshakeOfItsOwnChargedAndCounted() {
        ConnectorGate charging = new ConnectorGate("charge", budget, RefuseAction.CLOSE, RenegotiationPolicy.CHARGE, 1);
        open(1, 1);
        ConnectionAdmission connection = new ConnectionAdmission(charging);
        connection.reset(clock.get(), SOURCE, HOST);
        charging.decide(connection, Verdict.NEW, clock.get(), true);
        charging.serverFlight(connection, HandshakeKind.FULL, 0x0303, clock.get());
        assertEquals(0, budget.availableTokens(), 1e-9, "the first handshake took the only token");

        assertTrue(charging.renegotiation(connection, Initiator.CLIENT));
        assertFalse(charging.chargeFullHandshake(connection, clock.get()), "no token for the renegotiation's certificate");
        assertEquals(1, charging.counters().lateRefusals(Verdict.NEW, LateRefusal.CERTIFICATE));

        clock.addAndGet(1_000_000_000L);
        assertTrue(charging.renegotiation(connection, Initiator.CLIENT));
        assertTrue(charging.chargeFullHandshake(connection, clock.get()));
        assertEquals(2, charging.counters().handshakes(HandshakeKind.FULL, 0x0303), "the first one and the renegotiation");
        assertEquals(0, charging.falseResumptions().score(SOURCE, clock.get()), 1e-9, "a renegotiation is no false offer");
    }

    @Test
    void aFullHandshakeCountsWhenItsCertificateIsSentAndARefusedOneDoesNot() {
        ConnectionAdmission refused = connection();
        gate.decide(refused, Verdict.RESUME_PSK, clock.get(), true);
        assertFalse(gate.chargeFullHandshake(refused, clock.get()));
        gate.serverFlight(refused, HandshakeKind.FULL, 0x0304, clock.get());
        assertEquals(0, gate.counters().handshakes(HandshakeKind.FULL), "refused at the certificate: none was sent");

        open(1, 1);
        ConnectionAdmission abandoned = connection();
        gate.decide(abandoned, Verdict.NEW, clock.get(), true);
        gate.serverFlight(abandoned, HandshakeKind.FULL, 0x0304, clock.get());
        assertEquals(1, gate.counters().handshakes(HandshakeKind.FULL), "counted at the first flight, finished or not");
    }

    @Test
    void theBudgetLearnsEachHandshakesCostOnceWhenItEnds() {
        java.util.List<Long> costs = new java.util.ArrayList<>();
        ConnectorGate learning = new ConnectorGate("learn", new io.tlsadmit.admission.HandshakeBudget() {
            @Override
            public boolean tryAcquireFull() {
                return true;
            }

            @Override
            public boolean tryAcquireFullOnCredit(long maxDebt) {
                return true;
            }

            @Override
            public double fullHandshakesPerSecond() {
                return 1;
            }

            @Override
            public double availableTokens() {
                return 1;
            }

            @Override
            public void handshakeCompleted(HandshakeKind kind, int tlsVersion, long cpuNanos) {
                costs.add(cpuNanos);
            }
        }, RefuseAction.CLOSE);
        ConnectionAdmission connection = new ConnectionAdmission(learning);
        connection.reset(clock.get(), SOURCE, HOST);
        learning.decide(connection, Verdict.NEW, clock.get(), true);
        learning.handshakeEnded(connection);
        assertTrue(costs.isEmpty(), "nothing sent yet: nothing to learn");
        learning.serverFlight(connection, HandshakeKind.FULL, 0x0304, clock.get());
        connection.addHandshakeStep(4_000_000, 4_000_000);
        learning.handshakeEnded(connection);
        learning.handshakeEnded(connection);
        assertEquals(java.util.List.of(4_000_000L), costs);
    }

    @Test
    void aNewUsersOtherConnectionsAreAdmittedWithItsFirstOnCreditAndRepaidBeforeAnyoneElse() {
        open(1, 1);
        ConnectionAdmission first = connection();
        assertEquals(Decision.ADMITTED, gate.decide(first, Verdict.NEW, clock.get(), true));
        for (int i = 0; i < 5; i++) {
            assertEquals(Decision.ADMITTED, gate.decide(connection(), Verdict.NEW, clock.get(), true),
                    "connection " + (i + 2) + " of the page, with no token left");
        }
        assertEquals(Decision.REFUSED, gate.decide(connection(), Verdict.NEW, clock.get(), true), "a seventh is not a page");
        assertEquals(5, gate.counters().sessionGraceAdmissions());
        assertEquals(-5, budget.availableTokens(), 1e-9, "paid on credit");

        ConnectionAdmission other = new ConnectionAdmission(gate);
        other.reset(clock.get(), OTHER_SOURCE, OTHER_HOST);
        clock.addAndGet(5_000_000_000L); // 5 tokens at 1/s: the debt is repaid, nothing left over
        assertEquals(Decision.REFUSED, gate.decide(other, Verdict.NEW, clock.get(), true), "the debt comes first");
        clock.addAndGet(1_000_000_000L);
        assertEquals(Decision.ADMITTED, gate.decide(other, Verdict.NEW, clock.get(), true));
    }

    @Test
    void theGraceEndsAfterTwoSecondsAndNeverBeatsARateOfZero() {
        open(1, 1);
        gate.decide(connection(), Verdict.NEW, clock.get(), true);
        clock.addAndGet(ConnectorGate.SESSION_GRACE_WINDOW_NANOS + 1);
        budget.setFullHandshakesPerSecond(1);
        ConnectionAdmission late = connection();
        // One token refilled in the 2 s: taken by this connection as an ordinary admission.
        assertEquals(Decision.ADMITTED, gate.decide(late, Verdict.NEW, clock.get(), true));
        budget.setFullHandshakesPerSecond(0);
        assertEquals(Decision.REFUSED, gate.decide(connection(), Verdict.NEW, clock.get(), true),
                "rate 0 refuses every new handshake, grace or not");
    }

    @Test
    void observingDecidesAndCountsEverythingAndRefusesNothing() {
        gate.mode(GateMode.OBSERVE);
        assertEquals(Decision.ADMITTED, gate.decide(connection(), Verdict.NEW, clock.get(), true), "no token: let through");
        assertEquals(Decision.ADMITTED, gate.decide(connection(), Verdict.NOT_TLS, clock.get(), true));
        assertEquals(1, gate.counters().wouldRefusals(Verdict.NEW));
        assertEquals(1, gate.counters().wouldRefusals(Verdict.NOT_TLS));
        assertEquals(1, gate.counters().connections(Verdict.NEW, Decision.ADMITTED), "counted as what happened");

        ConnectionAdmission forged = connection();
        gate.decide(forged, Verdict.RESUME_PSK, clock.get(), true);
        assertFalse(gate.blockNewSession(forged), "the engine may create the session");
        assertTrue(gate.chargeFullHandshake(forged, clock.get()), "the certificate is not withheld");
        assertEquals(1, gate.counters().wouldRefusals(Verdict.RESUME_PSK));
        assertEquals(0, gate.counters().lateRefusals(Verdict.RESUME_PSK));
        assertTrue(gate.renegotiation(forged, Initiator.CLIENT), "nor is a renegotiation refused");
    }

    @Test
    void aBypassedConnectionIsAdmittedUnchargedAndCountedApart() {
        ConnectionAdmission probe = connection();
        gate.bypassed(probe);
        assertTrue(probe.isDecided());
        assertTrue(gate.chargeFullHandshake(probe, clock.get()), "never refused late either");
        assertEquals(0, budget.bucket().grantedCount());
        assertEquals(1, gate.counters().bypassedConnections());
    }
}
