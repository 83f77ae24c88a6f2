package io.tlsadmit.tomcat;

import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.gate.ConnectorGate;
import io.tlsadmit.gate.Decision;
import io.tlsadmit.gate.GateCounters;
import io.tlsadmit.gate.Initiator;
import io.tlsadmit.gate.SlowHelloReason;

/** The JMX view of a {@link ConnectorGate}. */
final class Gate implements GateMXBean {

    private final ConnectorGate gate;
    private final String budgetKind;
    private final AdmissionNioEndpoint endpoint;

    Gate(ConnectorGate gate, String budgetKind, AdmissionNioEndpoint endpoint) {
        this.gate = gate;
        this.budgetKind = budgetKind;
        this.endpoint = endpoint;
    }

    @Override
    public boolean isNativePeek() {
        return endpoint.isPeekingOnAccept();
    }

    @Override
    public long getDecidedOnAccept() {
        return counters().decidedOnAccept();
    }

    @Override
    public String getConnector() {
        return gate.name();
    }

    @Override
    public String getBudget() {
        return budgetKind;
    }

    @Override
    public String getRefuseAction() {
        return gate.refuseAction().attributeValue();
    }

    /** The cap an operator sets: the static rate, or the adaptive budget's ceiling (not its live rate). */
    @Override
    public double getMaxFullHandshakesPerSecond() {
        return gate.budget().getMaxFullHandshakesPerSecond();
    }

    @Override
    public double getFullHandshakesPerSecond() {
        return gate.budget().fullHandshakesPerSecond();
    }

    @Override
    public void setMaxFullHandshakesPerSecond(double rate) {
        try {
            gate.budget().setMaxFullHandshakesPerSecond(rate); // the cap: an operator's limit during an incident
        } catch (UnsupportedOperationException e) {
            throw notSetByHand();
        }
    }

    @Override
    public long getFullHandshakeBurst() {
        return gate.budget().getFullHandshakeBurst();
    }

    @Override
    public void setFullHandshakeBurst(long burst) {
        try {
            gate.budget().setFullHandshakeBurst(burst);
        } catch (UnsupportedOperationException e) {
            throw notSetByHand();
        }
    }

    private UnsupportedOperationException notSetByHand() {
        return new UnsupportedOperationException("The " + budgetKind + " budget of " + gate.name()
                + " is not set by hand");
    }

    @Override
    public double getAvailableTokens() {
        return gate.budget().availableTokens();
    }

    @Override
    public long getNewAdmitted() {
        return counters().connections(Verdict.NEW, Decision.ADMITTED);
    }

    @Override
    public long getNewRefused() {
        return counters().connections(Verdict.NEW, Decision.REFUSED);
    }

    @Override
    public long getResumptionsAdmitted() {
        long sum = 0;
        for (Verdict verdict : Verdict.values()) {
            if (verdict.isResumption()) {
                sum += counters().connections(verdict, Decision.ADMITTED);
            }
        }
        return sum;
    }

    @Override
    public long getNonHandshakesRefused() {
        return counters().connections(Verdict.NOT_TLS, Decision.REFUSED)
                + counters().connections(Verdict.SSLV2, Decision.REFUSED)
                + counters().connections(Verdict.MALFORMED, Decision.REFUSED);
    }

    @Override
    public long getIncompleteClosed() {
        return counters().connections(Verdict.INCOMPLETE, Decision.REFUSED);
    }

    @Override
    public long getLateRefusals() {
        long sum = 0;
        for (Verdict verdict : Verdict.values()) {
            sum += counters().lateRefusals(verdict);
        }
        return sum;
    }

    @Override
    public long getFullHandshakes() {
        return counters().handshakes(HandshakeKind.FULL);
    }

    @Override
    public long getResumedHandshakes() {
        return counters().handshakes(HandshakeKind.RESUMED);
    }

    @Override
    public long getMispredictions() {
        long sum = 0;
        for (Verdict verdict : Verdict.values()) {
            sum += counters().mispredictions(verdict);
        }
        return sum;
    }

    @Override
    public String getMode() {
        return gate.mode().attributeValue();
    }

    @Override
    public long getWouldRefuse() {
        long sum = 0;
        for (Verdict verdict : Verdict.values()) {
            sum += counters().wouldRefusals(verdict);
        }
        return sum;
    }

    @Override
    public long getBypassed() {
        return counters().bypassedConnections();
    }

    @Override
    public long getClientRenegotiationsRefused() {
        return counters().renegotiations(Initiator.CLIENT, Decision.REFUSED);
    }

    @Override
    public int getHellosPending() {
        return gate.pendingHellos().size();
    }

    @Override
    public long getSlowHellosClosed() {
        long sum = 0;
        for (SlowHelloReason reason : SlowHelloReason.values()) {
            sum += counters().slowHellos(reason);
        }
        return sum;
    }

    @Override
    public int getDistrustedSources() {
        return gate.falseResumptions().distrustedSources(System.nanoTime());
    }

    private GateCounters counters() {
        return gate.counters();
    }
}
