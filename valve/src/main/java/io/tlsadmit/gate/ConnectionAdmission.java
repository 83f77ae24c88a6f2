package io.tlsadmit.gate;

import io.tlsadmit.classifier.Verdict;

/**
 * What the gate decided about one connection and what it has charged, from the first byte to the
 * end of the handshake. Owned by one channel and reset when the channel is reused for another
 * connection; touched only by the thread handling that connection at the time.
 */
public final class ConnectionAdmission {

    private final ConnectorGate gate;
    private long acceptNanos;
    private Verdict verdict;
    private Decision decision;
    private boolean fullHandshakeCharged;
    private boolean refusedLate;
    private boolean handshakeRecorded;
    private long handshakeCpuNanos;

    public ConnectionAdmission(ConnectorGate gate) {
        this.gate = gate;
    }

    /** A new connection was accepted now. */
    public void reset(long acceptNanos) {
        this.acceptNanos = acceptNanos;
        verdict = null;
        decision = null;
        fullHandshakeCharged = false;
        refusedLate = false;
        handshakeRecorded = false;
        handshakeCpuNanos = 0;
    }

    public ConnectorGate gate() {
        return gate;
    }

    public long acceptNanos() {
        return acceptNanos;
    }

    /** The ClientHello verdict; {@code null} until the gate decided. */
    public Verdict verdict() {
        return verdict;
    }

    public Decision decision() {
        return decision;
    }

    public boolean isDecided() {
        return decision != null;
    }

    public boolean isFullHandshakeCharged() {
        return fullHandshakeCharged;
    }

    public boolean isRefusedLate() {
        return refusedLate;
    }

    public boolean isHandshakeRecorded() {
        return handshakeRecorded;
    }

    /** Adds CPU time the handshake took on the current thread. */
    public void addHandshakeCpu(long nanos) {
        if (nanos > 0) {
            handshakeCpuNanos += nanos;
        }
    }

    public long handshakeCpuNanos() {
        return handshakeCpuNanos;
    }

    /** The acceptor already admitted this connection (native peek); a NEW one took its token there. */
    public void admittedOnAccept(Verdict verdict, long acceptNanos) {
        this.acceptNanos = acceptNanos;
        decided(verdict, Decision.ADMITTED, verdict == Verdict.NEW);
    }

    void decided(Verdict verdict, Decision decision, boolean charged) {
        this.verdict = verdict;
        this.decision = decision;
        this.fullHandshakeCharged = charged;
    }

    void chargedLate() {
        fullHandshakeCharged = true;
    }

    void refusedLate() {
        refusedLate = true;
    }

    void handshakeRecorded() {
        handshakeRecorded = true;
    }
}
