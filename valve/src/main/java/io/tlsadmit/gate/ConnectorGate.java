package io.tlsadmit.gate;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.Verdict;
import java.util.Objects;

/**
 * The admission policy of one TLS connector, free of Tomcat types: the early decision on the
 * ClientHello verdict, the late charge when a resumption turns into a full handshake, and the truth
 * afterwards. Thread-safe; shared by every connection of the connector.
 */
public final class ConnectorGate {

    private final String name;
    private final HandshakeBudget budget;
    private final RefuseAction refuseAction;
    private final GateCounters counters = new GateCounters();
    private volatile ClientHelloClassifier classifier = new ClientHelloClassifier(ServerPolicy.DEFAULT);

    public ConnectorGate(String name, HandshakeBudget budget, RefuseAction refuseAction) {
        this.name = Objects.requireNonNull(name, "name");
        this.budget = Objects.requireNonNull(budget, "budget");
        this.refuseAction = Objects.requireNonNull(refuseAction, "refuseAction");
    }

    /** The connector's name as Tomcat reports it, e.g. {@code https-jsse-nio-127.0.0.1-8443}. */
    public String name() {
        return name;
    }

    public HandshakeBudget budget() {
        return budget;
    }

    public RefuseAction refuseAction() {
        return refuseAction;
    }

    public GateCounters counters() {
        return counters;
    }

    public ClientHelloClassifier classifier() {
        return classifier;
    }

    /** The server's highest version decides which path (1.2 or 1.3) a hello is classified on. */
    public void serverPolicy(ServerPolicy policy) {
        classifier = new ClientHelloClassifier(policy);
    }

    /**
     * The early gate, on a final verdict: resumptions pass, a new handshake passes if the budget has a
     * token, anything that is not a TLS handshake is refused.
     */
    public Decision decide(ConnectionAdmission connection, Verdict verdict, long nowNanos) {
        Decision decision = decide(verdict, connection.acceptNanos(), nowNanos);
        connection.decided(verdict, decision, verdict == Verdict.NEW && decision == Decision.ADMITTED);
        return decision;
    }

    /**
     * The same decision before the connection has a channel (on the acceptor, from a native peek); the
     * channel learns it through {@link ConnectionAdmission#admittedOnAccept}.
     */
    public Decision decideOnAccept(Verdict verdict, long acceptNanos, long nowNanos) {
        counters.onAcceptDecision();
        return decide(verdict, acceptNanos, nowNanos);
    }

    private Decision decide(Verdict verdict, long acceptNanos, long nowNanos) {
        counters.classified(Math.max(0, nowNanos - acceptNanos));
        if (budget instanceof AdmissionController adaptive && verdict.isHandshake()) {
            // Demand counts every arrival, admitted or not: it is what cpusRequested is computed from.
            adaptive.recordArrival(verdict.isResumption() ? HandshakeKind.RESUMED : HandshakeKind.FULL);
        }
        Decision decision;
        if (verdict.isResumption()) {
            decision = Decision.ADMITTED;
        } else if (verdict == Verdict.NEW) {
            decision = budget.tryAcquireFull() ? Decision.ADMITTED : Decision.REFUSED;
        } else {
            decision = Decision.REFUSED;
        }
        counters.connection(verdict, decision);
        return decision;
    }

    /**
     * A worker thread starts on this connection's handshake for the first time, after its task waited
     * {@code waitedNanos} for a worker: how long new connections queue, which the adaptive budget's
     * feedback guard watches. The wait is counted from the moment the connection had bytes to work on,
     * not from accept, so a client that is slow to send its hello (a loaded or distant client, or one
     * that trickles on purpose) is not mistaken for a server that is slow to serve it.
     */
    public void handshakeStarted(long waitedNanos) {
        if (budget instanceof AdmissionController adaptive) {
            adaptive.recordQueueDelay(waitedNanos);
        }
    }

    /** The client went away, or ran out of time, before its ClientHello was complete. */
    public void abandoned(ConnectionAdmission connection) {
        connection.decided(Verdict.INCOMPLETE, Decision.REFUSED, false);
        counters.connection(Verdict.INCOMPLETE, Decision.REFUSED);
    }

    /**
     * The late gate: the TLS engine is about to do a full handshake (it chose to sign with the
     * certificate). Charges the budget once per connection unless the early gate already did.
     *
     * @return false to refuse: the engine must not get a certificate
     */
    public boolean chargeFullHandshake(ConnectionAdmission connection) {
        if (connection.isFullHandshakeCharged()) {
            return true;
        }
        if (connection.isRefusedLate()) {
            return false;
        }
        if (budget.tryAcquireFull()) {
            connection.chargedLate();
            return true;
        }
        connection.refusedLate();
        counters.lateRefusal(connection.verdict() == null ? Verdict.NEW : connection.verdict());
        return false;
    }

    /** The truth from the ServerHello, once per handshake. */
    public void handshakeCompleted(ConnectionAdmission connection, HandshakeKind kind, int version) {
        if (connection.isHandshakeRecorded()) {
            return;
        }
        connection.handshakeRecorded();
        counters.handshake(kind, version);
        Verdict predicted = connection.verdict();
        if (predicted != null && ((predicted.isResumption() && kind == HandshakeKind.FULL)
                || (predicted == Verdict.NEW && kind == HandshakeKind.RESUMED))) {
            counters.misprediction(predicted);
        }
        budget.handshakeCompleted(kind, version, connection.handshakeCpuNanos());
    }

    @Override
    public String toString() {
        return "ConnectorGate[" + name + ", " + budget + ", refuseAction=" + refuseAction.attributeValue() + "]";
    }
}
