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
     * A connector times the CPU of its first resumption offer, then of the first accepted at least this long after
     * the last one timed: at most ten a second. Every other handshake is timed.
     *
     * <p>Why not all: the thread CPU clock has no vDSO path, so timing a handshake is two system calls per step,
     * eight for a TLS 1.2 resumption, where the whole connection makes about fifty; every resumption timed was most
     * of what the gate cost over stock Tomcat per resumed connection with the adaptive budget, and one in eight still
     * a share of each (docs/benchmarks.md section 7). The budget needs the cost of a <em>full</em> handshake, its
     * divisor, and every new client's is timed; of resumptions it needs only the average, for {@code cpusRequested}
     * and the metrics, which ten a second give at any rate, and resumptions are the many. Their CPU is in the
     * process clock either way, so the control law's busy CPUs do not change.
     */
    public static final long RESUMPTION_TIMING_INTERVAL_NANOS = 100_000_000L;

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
    /** Wall time of the steps {@link #handshakeCpuNanos} was timed over. */
    private long handshakeWallNanos;
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
        handshakeWallNanos = 0;
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
     * Whether the next handshake step's CPU is to be timed. A connection whose hello offers a resumption (a TLS 1.3
     * PSK, a TLS 1.2 ticket, a session id the server's cache holds: {@link #sessionIdVerified}) draws its sample as
     * soon as that is known: the connector's first such offer, then the first accepted {@link
     * #RESUMPTION_TIMING_INTERVAL_NANOS} or more after the last one timed, is timed whatever the server then makes of
     * it, the others not at all. Any other connection is timed until the server's first flight shows what its
     * handshake is, then for the rest of it if it is full (a hello that offered nothing and was resumed anyway is
     * sampled then). An untimed one forgets what its first steps took, so that no part of a handshake is recorded as
     * its cost.
     *
     * <p>Why at the hello: the thread CPU clock has no vDSO path, and waiting for the truth cost two readings
     * around the first step of every resumption; on TLS 1.3, where that step is the PSK's key exchange, that was
     * most of what the adaptive budget cost per resumed connection beyond the static one (4.9 µs of about 820,
     * docs/benchmarks.md section 7). The price: an offer the server cannot resume (a ticket from before a restart, a
     * forged one, a session evicted from the cache) is a full handshake that, unless drawn, goes untimed. It still
     * took a token, and the budget is told it was full with an unknown cost (0), which an adaptive budget counts at
     * the full handshakes' measured cost rather than as load of the sessions already admitted.
     */
    public boolean timesHandshakeCpu() {
        if (timing == Timing.UNDECIDED) {
            boolean offered = sessionIdVerified || verdict != null && verdict.isResumption();
            if (offered || truth != null) {
                boolean sampled = !offered && truth == HandshakeKind.FULL || gate.timesResumption(acceptNanos);
                timing = sampled ? Timing.TIMED : Timing.UNTIMED;
                if (!sampled) {
                    handshakeCpuNanos = 0; // what an adapter timed before the decision: not a part to count
                    handshakeWallNanos = 0;
                }
            }
        }
        return timing != Timing.UNTIMED;
    }

    /**
     * Adds a step of the handshake timed on the thread that ran it (a worker, or one the work was handed to): its
     * CPU time and the wall time it took. A step never waits for the network or another thread (the adapters time
     * non-blocking work only, and leave out a wait for the thread they hand work to), so its wall time over its CPU
     * time is how long the thread stood runnable without a CPU: the adaptive budget's reading of the run queue.
     */
    public void addHandshakeStep(long cpuNanos, long wallNanos) {
        if (cpuNanos > 0) {
            handshakeCpuNanos += cpuNanos;
            handshakeWallNanos += Math.max(cpuNanos, wallNanos);
        }
    }

    public long handshakeCpuNanos() {
        return handshakeCpuNanos;
    }

    /** The wall time the handshake's timed CPU was spent over. */
    public long handshakeWallNanos() {
        return handshakeWallNanos;
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
