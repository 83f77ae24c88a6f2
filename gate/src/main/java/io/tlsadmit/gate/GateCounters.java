package io.tlsadmit.gate;

import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.classifier.TlsVersion;
import io.tlsadmit.classifier.Verdict;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every count the gate keeps, as striped adders so that connection threads never contend. Metrics
 * (Micrometer, JMX) are views that read these; the gate works the same with no view attached.
 */
public final class GateCounters {

    private static final Verdict[] VERDICTS = Verdict.values();
    private static final Decision[] DECISIONS = Decision.values();
    private static final HandshakeKind[] KINDS = HandshakeKind.values();
    /** The versions counted separately; anything else is counted as {@link #OTHER_VERSION}. */
    private static final int[] VERSIONS = {TlsVersion.TLS1_0, TlsVersion.TLS1_1, TlsVersion.TLS1_2, TlsVersion.TLS1_3};
    public static final int OTHER_VERSION = 0;

    private final LongAdder[][] connections = new LongAdder[VERDICTS.length][DECISIONS.length];
    private final LongAdder[][] handshakes = new LongAdder[KINDS.length][VERSIONS.length + 1];
    private final LongAdder[] mispredictions = new LongAdder[VERDICTS.length];
    private static final LateRefusal[] LATE_REFUSALS = LateRefusal.values();
    private static final Initiator[] INITIATORS = Initiator.values();
    private static final SlowHelloReason[] SLOW_HELLO_REASONS = SlowHelloReason.values();

    private final LongAdder[][] lateRefusals = new LongAdder[VERDICTS.length][LATE_REFUSALS.length];
    private final LongAdder[][] renegotiations = new LongAdder[INITIATORS.length][DECISIONS.length];
    private final LongAdder[] distrustedOffers = new LongAdder[DECISIONS.length];
    private final LongAdder[] slowHellos = new LongAdder[SLOW_HELLO_REASONS.length];
    private final LongAdder sessionGrace = new LongAdder();
    private final LongAdder[] wouldRefuse = new LongAdder[VERDICTS.length];
    private final LongAdder bypassed = new LongAdder();
    private final LongAdder classifications = new LongAdder();
    private final LongAdder decidedOnAccept = new LongAdder();
    private final LongAdder classificationNanos = new LongAdder();
    private final LongAccumulator classificationMaxNanos = new LongAccumulator(Math::max, 0);

    public GateCounters() {
        for (int v = 0; v < VERDICTS.length; v++) {
            for (int d = 0; d < DECISIONS.length; d++) {
                connections[v][d] = new LongAdder();
            }
            mispredictions[v] = new LongAdder();
            wouldRefuse[v] = new LongAdder();
            for (int w = 0; w < LATE_REFUSALS.length; w++) {
                lateRefusals[v][w] = new LongAdder();
            }
        }
        for (int i = 0; i < INITIATORS.length; i++) {
            for (int d = 0; d < DECISIONS.length; d++) {
                renegotiations[i][d] = new LongAdder();
            }
        }
        for (int d = 0; d < DECISIONS.length; d++) {
            distrustedOffers[d] = new LongAdder();
        }
        for (int r = 0; r < SLOW_HELLO_REASONS.length; r++) {
            slowHellos[r] = new LongAdder();
        }
        for (int k = 0; k < KINDS.length; k++) {
            for (int i = 0; i <= VERSIONS.length; i++) {
                handshakes[k][i] = new LongAdder();
            }
        }
    }

    void connection(Verdict verdict, Decision decision) {
        connections[verdict.ordinal()][decision.ordinal()].increment();
    }

    void classified(long nanosSinceAccept) {
        classifications.increment();
        classificationNanos.add(nanosSinceAccept);
        classificationMaxNanos.accumulate(nanosSinceAccept);
    }

    void onAcceptDecision() {
        decidedOnAccept.increment();
    }

    void handshake(HandshakeKind kind, int version) {
        handshakes[kind.ordinal()][versionIndex(version)].increment();
    }

    void misprediction(Verdict verdict) {
        mispredictions[verdict.ordinal()].increment();
    }

    void lateRefusal(Verdict verdict, LateRefusal where) {
        lateRefusals[verdict.ordinal()][where.ordinal()].increment();
    }

    void renegotiation(Initiator initiator, Decision decision) {
        renegotiations[initiator.ordinal()][decision.ordinal()].increment();
    }

    void wouldRefuse(Verdict verdict) {
        wouldRefuse[verdict.ordinal()].increment();
    }

    void bypassed() {
        bypassed.increment();
    }

    /**
     * Handshakes refused so far, early or late (what an operator means by "refusing"); with
     * {@code mode="observe"}, those that would have been.
     */
    public long handshakeRefusals(boolean observing) {
        long sum = 0;
        for (Verdict verdict : VERDICTS) {
            if (observing) {
                sum += wouldRefusals(verdict);
            } else if (verdict.isHandshake()) {
                sum += connections(verdict, Decision.REFUSED) + lateRefusals(verdict);
            }
        }
        return sum;
    }

    /** Refusals {@code mode="observe"} counted instead of making them, by the ClientHello's verdict. */
    public long wouldRefusals(Verdict verdict) {
        return wouldRefuse[verdict.ordinal()].sum();
    }

    /** Connections from {@code bypassAddresses}, admitted without a decision. */
    public long bypassedConnections() {
        return bypassed.sum();
    }

    void sessionGrace() {
        sessionGrace.increment();
    }

    void distrustedOffer(Decision decision) {
        distrustedOffers[decision.ordinal()].increment();
    }

    void slowHello(SlowHelloReason reason) {
        slowHellos[reason.ordinal()].increment();
    }

    public long connections(Verdict verdict, Decision decision) {
        return connections[verdict.ordinal()][decision.ordinal()].sum();
    }

    /** @param version a wire version such as {@code 0x0304}, or {@link #OTHER_VERSION} */
    public long handshakes(HandshakeKind kind, int version) {
        return handshakes[kind.ordinal()][versionIndex(version)].sum();
    }

    public long handshakes(HandshakeKind kind) {
        long sum = 0;
        for (LongAdder adder : handshakes[kind.ordinal()]) {
            sum += adder.sum();
        }
        return sum;
    }

    public long mispredictions(Verdict verdict) {
        return mispredictions[verdict.ordinal()].sum();
    }

    public long lateRefusals(Verdict verdict) {
        long sum = 0;
        for (LongAdder adder : lateRefusals[verdict.ordinal()]) {
            sum += adder.sum();
        }
        return sum;
    }

    public long lateRefusals(Verdict verdict, LateRefusal where) {
        return lateRefusals[verdict.ordinal()][where.ordinal()].sum();
    }

    public long renegotiations(Initiator initiator, Decision decision) {
        return renegotiations[initiator.ordinal()][decision.ordinal()].sum();
    }

    /** New connections admitted on credit because their host had just been admitted (its page's other connections). */
    public long sessionGraceAdmissions() {
        return sessionGrace.sum();
    }

    /** Offers to resume from distrusted sources, by what the early gate did with them. */
    public long distrustedOffers(Decision decision) {
        return distrustedOffers[decision.ordinal()].sum();
    }

    public long slowHellos(SlowHelloReason reason) {
        return slowHellos[reason.ordinal()].sum();
    }

    public long classifications() {
        return classifications.sum();
    }

    /** Decisions made on the acceptor from a native peek, before the connection had a channel. */
    public long decidedOnAccept() {
        return decidedOnAccept.sum();
    }

    public long classificationNanos() {
        return classificationNanos.sum();
    }

    public long classificationMaxNanos() {
        return classificationMaxNanos.get();
    }

    /** The versions with their own counters, for metric views; {@link #OTHER_VERSION} is the rest. */
    public static int[] countedVersions() {
        return VERSIONS.clone();
    }

    private static int versionIndex(int version) {
        for (int i = 0; i < VERSIONS.length; i++) {
            if (VERSIONS[i] == version) {
                return i;
            }
        }
        return VERSIONS.length;
    }
}
