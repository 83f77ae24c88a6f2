package io.tlsadmit.gate;

import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.gate.source.SourcePrefix;

/**
 * What the gate decided about one connection and what it has charged, from the first byte to the
 * end of the connection. Owned by one channel and reset when the channel is reused for another
 * connection; touched by one thread at a time (the thread handling the connection then, or the
 * engine's delegated task it runs).
 */
public final class ConnectionAdmission {

    /**
     * One resumption in this many has its handshake CPU timed; every other handshake is timed.
     *
     * <p>Why not all: the thread CPU clock has no vDSO path, so timing a handshake is two system calls per step,
     * eight for a TLS 1.2 resumption, where the whole connection makes about fifty; that was most of what the gate
     * costs over stock Tomcat per resumed connection with the adaptive budget (docs/benchmarks.md section 7). The
     * budget needs the cost of a <em>full</em> handshake, its divisor, from every one; of resumptions it needs only
     * the average, for {@code cpusRequested} and the metrics, and resumptions are the many. Their CPU is in the
     * process clock either way, so the control law's busy CPUs do not change.
     */
    public static final int RESUMPTION_TIMING_SAMPLE = 8;

    private enum Timing { UNDECIDED, TIMED, UNTIMED }

    private final ConnectorGate gate;
    private long acceptNanos;
    private long source = SourcePrefix.UNKNOWN;
    private long host = SourcePrefix.UNKNOWN;
    private Verdict verdict;
    private Decision decision;
    private boolean fullHandshakeCharged;
    private boolean refusedLate;
    private boolean distrusted;
    private boolean newSessionBlocked;
    private HandshakeKind truth;
    private int truthVersion;
    private boolean costRecorded;
    private boolean renegotiating;
    private long handshakeCpuNanos;
    private Timing timing = Timing.UNDECIDED;
    private boolean sessionIdVerified;

    public ConnectionAdmission(ConnectorGate gate) {
        this.gate = gate;
    }

    /**
     * A new connection was accepted now from {@code host} in {@code source} ({@link SourcePrefix#host} and
     * {@link SourcePrefix#of}).
     */
    public void reset(long acceptNanos, long source, long host) {
        this.acceptNanos = acceptNanos;
        this.source = source;
        this.host = host;
        verdict = null;
        decision = null;
        fullHandshakeCharged = false;
        refusedLate = false;
        distrusted = false;
        newSessionBlocked = false;
        truth = null;
        truthVersion = 0;
        costRecorded = false;
        renegotiating = false;
        handshakeCpuNanos = 0;
        timing = Timing.UNDECIDED;
        sessionIdVerified = false;
    }

    public ConnectorGate gate() {
        return gate;
    }

    public long acceptNanos() {
        return acceptNanos;
    }

    public long source() {
        return source;
    }

    public long host() {
        return host;
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

    /** The offer came from a source that keeps offering false resumptions. */
    public boolean isDistrusted() {
        return distrusted;
    }

    /** The engine was told not to create a session: it may resume, or fail before any key exchange. */
    public boolean isNewSessionBlocked() {
        return newSessionBlocked;
    }

    /** What the server's first flight showed the handshake to be; {@code null} before it was sent. */
    public HandshakeKind truth() {
        return truth;
    }

    public int truthVersion() {
        return truthVersion;
    }

    /** A renegotiation on this connection has been let through and not finished yet. */
    public boolean isRenegotiating() {
        return renegotiating;
    }

    /**
     * Whether the next handshake step's CPU is to be timed: every step until the server's first flight shows what
     * the handshake is, then the rest of every full handshake and of the connector's first resumption and every
     * {@link #RESUMPTION_TIMING_SAMPLE}th after it. An untimed one forgets what its first steps took, so that no part
     * of a handshake is recorded as its cost.
     *
     * <p>Why the truth and not the hello's verdict: an offered resumption the server cannot resume (a ticket from
     * before a restart, a session evicted from the cache) is a full handshake, and a full handshake's CPU left out of
     * the handshakes' would count as load of the sessions already admitted while it also took a token. Waiting for
     * the truth costs the first step's two clock readings on every resumption (55.3 system calls per TLS 1.2
     * resumed connection against 52.8 deciding at the verdict, docs/benchmarks.md section 7).
     *
     * <p>The exception is a TLS 1.2 session id the server's session cache was just seen to hold
     * ({@link #sessionIdVerified}): the engine will resume it (unless the cache drops it within the same
     * microseconds), so the sample is drawn at once, and an adapter that asks again right after classifying the
     * hello need not time an unsampled one at all.
     */
    public boolean timesHandshakeCpu() {
        // Decided once: by the server's truth, or earlier by a session id the cache holds (a resumption, truth null).
        if (timing == Timing.UNDECIDED && (truth != null || sessionIdVerified)) {
            boolean sampled = truth == HandshakeKind.FULL || gate.timesResumption();
            timing = sampled ? Timing.TIMED : Timing.UNTIMED;
            if (!sampled) {
                handshakeCpuNanos = 0; // what an adapter timed before the decision: not a part to count
            }
        }
        return timing != Timing.UNTIMED;
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

    /**
     * The acceptor already admitted this connection (native peek); a NEW or distrusted one took its token there.
     *
     * @param sessionIdVerified the acceptor found the hello's TLS 1.2 session id in the server's session cache
     *                          (see {@link #timesHandshakeCpu})
     */
    public void admittedOnAccept(Verdict verdict, long acceptNanos, boolean charged, boolean sessionIdVerified) {
        this.acceptNanos = acceptNanos;
        this.sessionIdVerified = sessionIdVerified;
        decided(verdict, Decision.ADMITTED, charged);
    }

    void decided(Verdict verdict, Decision decision, boolean charged) {
        this.verdict = verdict;
        this.decision = decision;
        this.fullHandshakeCharged = charged;
    }

    /** The hello offers a TLS 1.2 session id that the server's session cache holds: the engine will resume it. */
    void sessionIdVerified() {
        sessionIdVerified = true;
    }

    void distrusted() {
        distrusted = true;
    }

    void newSessionBlocked() {
        newSessionBlocked = true;
    }

    void chargedLate() {
        fullHandshakeCharged = true;
    }

    void refusedLate() {
        refusedLate = true;
    }

    void truth(HandshakeKind kind, int version) {
        truth = kind;
        truthVersion = version;
    }

    boolean takeCostRecording() {
        if (costRecorded || truth == null) {
            return false;
        }
        costRecorded = true;
        return true;
    }

    /** A renegotiation starts: it is a handshake of its own, charged and refused on its own. */
    void renegotiationStarted() {
        renegotiating = true;
        fullHandshakeCharged = false;
        refusedLate = false;
    }

    void renegotiationFinished() {
        renegotiating = false;
    }
}
