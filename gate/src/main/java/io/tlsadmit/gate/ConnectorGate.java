package io.tlsadmit.gate;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.admission.HandshakeKind;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.TlsVersion;
import io.tlsadmit.classifier.Verdict;
import io.tlsadmit.gate.source.FalseResumptions;
import io.tlsadmit.gate.source.PendingHellos;
import io.tlsadmit.gate.source.SessionGrace;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The admission policy of one TLS connector, free of Tomcat types: the early decision on the
 * ClientHello verdict, the late charge when a resumption turns into a full handshake, renegotiation,
 * and the truth afterwards. Thread-safe; shared by every connection of the connector.
 *
 * <p>What a client can make the server spend, and where each is bounded:
 * <ul>
 *   <li>a new full handshake: a token, taken before any cryptography ({@link #decide});</li>
 *   <li>an offer to resume that is false (forged, foreign or stale ticket or PSK): the engine finds out
 *       only after parsing the hello and decrypting the ticket. When the budget has no token for it,
 *       or its source keeps making false offers, the engine is told not to create a session
 *       ({@link #blockNewSession}), so a false offer fails before the key exchange; otherwise the full
 *       handshake it turns into is charged when the engine asks for the certificate
 *       ({@link #chargeFullHandshake});</li>
 *   <li>a TLS 1.2 renegotiation on an admitted connection: refused before the engine reads it, or,
 *       when allowed, charged like any other full handshake ({@link #renegotiation}).</li>
 * </ul>
 */
public final class ConnectorGate {

    /** False offers (decayed) after which a source's unverifiable offers are distrusted. */
    static final double DISTRUST_THRESHOLD = 3;
    static final long DISTRUST_HALF_LIFE_NANOS = TimeUnit.SECONDS.toNanos(30);
    static final int DISTRUST_SOURCES = 4096;
    /** A browser opens its first page's connections within a few hundred ms; 2 s covers a slow one. */
    static final long SESSION_GRACE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(2);
    static final int SESSION_GRACE_HOSTS = 4096;
    /** What false offers found only afterwards ({@link #uncheckedFullHandshake}) may owe the budget at once. */
    public static final long FALSE_OFFER_DEBT = 64;
    /** Browsers open at most six connections per host name (HTTP/1.1). */
    public static final int DEFAULT_CONNECTIONS_PER_NEW_USER = 6;

    private final String name;
    private final HandshakeBudget budget;
    private final RefuseAction refuseAction;
    private final RenegotiationPolicy clientRenegotiation;
    private volatile GateMode mode = GateMode.ENFORCE;
    private final GateCounters counters = new GateCounters();
    private final ResumptionTimingSample resumptionTiming =
            new ResumptionTimingSample(ConnectionAdmission.RESUMPTION_TIMING_INTERVAL_NANOS);
    private final FalseResumptions falseResumptions =
            new FalseResumptions(DISTRUST_SOURCES, DISTRUST_THRESHOLD, DISTRUST_HALF_LIFE_NANOS);
    private volatile ClientHelloClassifier classifier = new ClientHelloClassifier(ServerPolicy.DEFAULT);
    private volatile SlowHelloLimits slowHelloLimits;
    private volatile PendingHellos pendingHellos = new PendingHellos(Integer.MAX_VALUE, Integer.MAX_VALUE);
    private final SessionGrace sessionGrace;
    /** What grace admissions may owe the budget at once: two users' pages. */
    private final long maxGraceDebt;

    public ConnectorGate(String name, HandshakeBudget budget, RefuseAction refuseAction) {
        this(name, budget, refuseAction, RenegotiationPolicy.REFUSE, DEFAULT_CONNECTIONS_PER_NEW_USER);
    }

    /**
     * @param connectionsPerNewUser new connections of one host admitted together: the one the budget
     *                              admits and up to this many minus one more within two seconds, on credit
     */
    public ConnectorGate(String name, HandshakeBudget budget, RefuseAction refuseAction,
            RenegotiationPolicy clientRenegotiation, int connectionsPerNewUser) {
        this.name = Objects.requireNonNull(name, "name");
        this.budget = Objects.requireNonNull(budget, "budget");
        this.refuseAction = Objects.requireNonNull(refuseAction, "refuseAction");
        this.clientRenegotiation = Objects.requireNonNull(clientRenegotiation, "clientRenegotiation");
        this.sessionGrace = new SessionGrace(SESSION_GRACE_HOSTS, connectionsPerNewUser - 1, SESSION_GRACE_WINDOW_NANOS);
        this.maxGraceDebt = 2L * connectionsPerNewUser;
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

    public RenegotiationPolicy clientRenegotiation() {
        return clientRenegotiation;
    }

    public GateCounters counters() {
        return counters;
    }

    public FalseResumptions falseResumptions() {
        return falseResumptions;
    }

    public ClientHelloClassifier classifier() {
        return classifier;
    }

    /** {@code observe}: every decision is made and counted, none is acted on. Set before the connector accepts. */
    public void mode(GateMode mode) {
        this.mode = Objects.requireNonNull(mode, "mode");
    }

    public GateMode mode() {
        return mode;
    }

    public boolean isObserving() {
        return mode == GateMode.OBSERVE;
    }

    /** How long and how many connections may wait for their hello; set once, before the connector accepts. */
    public void slowHelloLimits(SlowHelloLimits limits) {
        slowHelloLimits = limits;
        pendingHellos = new PendingHellos(limits.maxPending(), limits.maxPendingPerSource());
    }

    /** Null until {@link #slowHelloLimits(SlowHelloLimits)} is called. */
    public SlowHelloLimits slowHelloLimits() {
        return slowHelloLimits;
    }

    /** The connections of this connector waiting for their ClientHello. */
    public PendingHellos pendingHellos() {
        return pendingHellos;
    }

    /** The server's highest version decides which path (1.2 or 1.3) a hello is classified on. */
    public void serverPolicy(ServerPolicy policy) {
        classifier = new ClientHelloClassifier(policy);
    }

    /**
     * The early gate, on a final verdict: resumptions pass, a new handshake passes if the budget has a
     * token, anything that is not a TLS handshake is refused.
     *
     * @param lateGated whether the engine has a late gate (JSSE): without one, an offer from a distrusted
     *                  source is charged like a new handshake here, the only place left to bound it
     */
    public Decision decide(ConnectionAdmission connection, Verdict verdict, long nowNanos, boolean lateGated) {
        boolean distrusted = isUnverifiable(verdict) && falseResumptions.isDistrusted(connection.source(), nowNanos);
        boolean chargeNow = verdict == Verdict.NEW || (distrusted && !lateGated);
        Decision decision = decide(verdict, connection.host(), connection.acceptNanos(), nowNanos, chargeNow);
        if (distrusted) {
            connection.distrusted();
            counters.distrustedOffer(decision);
        }
        connection.decided(verdict, decision, chargeNow && decision == Decision.ADMITTED);
        return decision;
    }

    /**
     * The same decision before the connection has a channel (on the acceptor, from a native peek);
     * the channel learns it through {@link ConnectionAdmission#admittedOnAccept}. Offers that need the
     * source's history are left to the channel (this returns null for them).
     */
    public Decision decideOnAccept(Verdict verdict, long source, long host, long acceptNanos, long nowNanos) {
        if (isUnverifiable(verdict) && falseResumptions.isDistrusted(source, nowNanos)) {
            return null;
        }
        counters.onAcceptDecision();
        return decide(verdict, host, acceptNanos, nowNanos, verdict == Verdict.NEW);
    }

    private Decision decide(Verdict verdict, long host, long acceptNanos, long nowNanos, boolean charge) {
        counters.classified(Math.max(0, nowNanos - acceptNanos));
        if (verdict.isHandshake()) {
            // Demand counts every arrival, admitted or not: it is what cpusRequested is computed from.
            budget.recordArrival(verdict.isResumption() ? HandshakeKind.RESUMED : HandshakeKind.FULL);
        }
        Decision decision;
        if (charge) {
            decision = charge(verdict, host, nowNanos) ? Decision.ADMITTED : Decision.REFUSED;
        } else if (verdict.isResumption()) {
            decision = Decision.ADMITTED;
        } else {
            decision = Decision.REFUSED;
        }
        return act(verdict, decision);
    }

    /**
     * What is done with a decision: in {@code observe} mode a refusal is counted as one that would have
     * been made, and the connection goes on.
     */
    private Decision act(Verdict verdict, Decision decision) {
        if (decision == Decision.REFUSED && mode == GateMode.OBSERVE) {
            counters.wouldRefuse(verdict);
            decision = Decision.ADMITTED;
        }
        counters.connection(verdict, decision);
        return decision;
    }

    /** A connection from a bypass address: admitted whatever it sends, counted apart, never charged. */
    public void bypassed(ConnectionAdmission connection) {
        connection.decided(null, Decision.ADMITTED, true);
        counters.bypassed();
    }

    /**
     * A token for a new handshake; or, for a host admitted a moment ago, one on credit: the other
     * connections of its first page are admitted with the first (or the page fails and the first
     * handshake was spent on nobody), and paid for by the next refills.
     */
    private boolean charge(Verdict verdict, long host, long nowNanos) {
        if (budget.tryAcquireFull()) {
            if (verdict == Verdict.NEW) {
                sessionGrace.admitted(host, nowNanos);
            }
            return true;
        }
        if (verdict == Verdict.NEW && sessionGrace.take(host, nowNanos) && budget.tryAcquireFullOnCredit(maxGraceDebt)) {
            counters.sessionGrace();
            return true;
        }
        return false;
    }

    /** Tickets and PSKs only the engine can check; a TLS 1.2 session id was looked up before the gate decided. */
    private static boolean isUnverifiable(Verdict verdict) {
        return verdict == Verdict.RESUME_PSK || verdict == Verdict.RESUME_TICKET;
    }

    /**
     * Whether the engine of this admitted connection must not create a session: true for an unverified
     * offer to resume when the budget has no token for the full handshake it may turn into, or when its
     * source is distrusted. The engine then resumes a genuine offer and fails a false one when it has
     * parsed the hello, before the key exchange, instead of doing most of a full handshake to be refused
     * at the certificate.
     */
    public boolean blockNewSession(ConnectionAdmission connection) {
        Verdict verdict = connection.verdict();
        if (verdict == null || !isUnverifiable(verdict) || connection.isFullHandshakeCharged()) {
            return false;
        }
        if (mode == GateMode.ENFORCE && (connection.isDistrusted() || budget.availableTokens() < 1)) {
            connection.newSessionBlocked();
            return true;
        }
        return false;
    }

    /** The engine failed a handshake it was told not to create a session for: the offer was false. */
    public void refusedWithoutNewSession(ConnectionAdmission connection, long nowNanos) {
        if (connection.isRefusedLate()) {
            return;
        }
        connection.refusedLate();
        counters.lateRefusal(connection.verdict(), LateRefusal.NEW_SESSION);
        falseResumptions.record(connection.source(), nowNanos);
    }

    /**
     * A worker thread starts on this connection's handshake for the first time, after its task waited
     * {@code waitedNanos} for a worker: how long new connections queue, which the adaptive budget's
     * feedback guard watches. The wait is counted from the moment the connection had bytes to work on,
     * not from accept, so a client that is slow to send its hello (a loaded or distant client, or one
     * that trickles on purpose) is not mistaken for a server that is slow to serve it.
     */
    public void handshakeStarted(long waitedNanos) {
        budget.recordQueueDelay(waitedNanos);
    }

    /**
     * An admitted new client's handshake work waited {@code queuedNanos} for one of the threads that run it apart
     * from the workers ({@code fullHandshakeNice}): a queue for the CPU that the run queue no longer shows, so the
     * adaptive budget's guard watches it with the wait for a worker.
     */
    public void handshakeQueued(long queuedNanos) {
        budget.recordQueueDelay(queuedNanos);
    }

    /** The client went away, or ran out of time, before its ClientHello was complete. */
    public void abandoned(ConnectionAdmission connection) {
        connection.decided(Verdict.INCOMPLETE, Decision.REFUSED, false);
        counters.connection(Verdict.INCOMPLETE, Decision.REFUSED);
    }

    /**
     * The late gate: the TLS engine is about to do a full handshake (it chose to sign with the
     * certificate). Charges the budget once per handshake unless the early gate already did. A
     * predicted resumption that gets here was a false offer, and its source is remembered.
     *
     * @return false to refuse: the engine must not get a certificate
     */
    public boolean chargeFullHandshake(ConnectionAdmission connection, long nowNanos) {
        if (connection.isFullHandshakeCharged()) {
            return true;
        }
        if (connection.isRefusedLate()) {
            return false;
        }
        if (!connection.isRenegotiating()) {
            falseResumptions.record(connection.source(), nowNanos);
        }
        if (budget.tryAcquireFull()) {
            connection.chargedLate();
            if (connection.isRenegotiating()) {
                // Its flights are encrypted, so the truth cannot be read from them: the certificate is it.
                counters.handshake(HandshakeKind.FULL, TlsVersion.TLS1_2);
            }
            return true;
        }
        Verdict verdict = connection.isRenegotiating() || connection.verdict() == null ? Verdict.NEW : connection.verdict();
        if (mode == GateMode.OBSERVE) {
            counters.wouldRefuse(verdict);
            connection.chargedLate(); // once per handshake, like a charge
            return true;
        }
        connection.refusedLate();
        counters.lateRefusal(verdict, LateRefusal.CERTIFICATE);
        return false;
    }

    /**
     * Without a late gate (an engine that asks for the certificate whether or not it will resume, as
     * BoringSSL does through Netty): the server's first flight showed a full handshake that nothing
     * charged, so the offer to resume was false. The work is done; it is charged now, on credit of at
     * most {@link #FALSE_OFFER_DEBT} tokens, so the next new clients wait for it and the rate holds on
     * average, and its source is remembered, so that its next offers are charged before the handshake.
     * Call after {@link #serverFlight} reported {@link HandshakeKind#FULL}.
     */
    public void uncheckedFullHandshake(ConnectionAdmission connection, long nowNanos) {
        if (connection.isFullHandshakeCharged() || connection.isRefusedLate() || connection.isRenegotiating()) {
            return;
        }
        falseResumptions.record(connection.source(), nowNanos);
        if (mode == GateMode.ENFORCE) {
            budget.tryAcquireFullOnCredit(FALSE_OFFER_DEBT);
        }
        connection.chargedLate();
    }

    /**
     * A TLS 1.2 renegotiation is starting on an established connection. A client's is refused unless
     * the connector allows it; the server's own (a client certificate asked for after the first
     * handshake) goes ahead. Either way, a renegotiation that needs a certificate is charged through
     * {@link #chargeFullHandshake} like any full handshake.
     *
     * @return false to close the connection before the engine reads the new hello
     */
    public boolean renegotiation(ConnectionAdmission connection, Initiator initiator) {
        boolean allowed = initiator == Initiator.SERVER || clientRenegotiation == RenegotiationPolicy.CHARGE
                || mode == GateMode.OBSERVE;
        counters.renegotiation(initiator, allowed ? Decision.ADMITTED : Decision.REFUSED);
        if (allowed) {
            connection.renegotiationStarted();
        }
        return allowed;
    }

    public void renegotiationFinished(ConnectionAdmission connection) {
        connection.renegotiationFinished();
    }

    /**
     * The truth, from the server's first flight, once per handshake: counted when it is sent, whether or
     * not the client then finishes, because that flight (the certificate and its signature) is the work.
     * A handshake the late gate refused sent no certificate and is not a full handshake.
     */
    public void serverFlight(ConnectionAdmission connection, HandshakeKind kind, int version, long nowNanos) {
        if (connection.truth() != null || connection.isRenegotiating()
                || (kind == HandshakeKind.FULL && connection.isRefusedLate())) {
            return;
        }
        connection.truth(kind, version);
        counters.handshake(kind, version);
        Verdict predicted = connection.verdict();
        if (predicted != null && ((predicted.isResumption() && kind == HandshakeKind.FULL)
                || (predicted == Verdict.NEW && kind == HandshakeKind.RESUMED))) {
            counters.misprediction(predicted);
        }
    }

    /**
     * Whether this resumption offer (or resumption the hello did not offer), of a connection accepted at
     * {@code acceptNanos}, is to be timed: the connector's first, then the first accepted at least {@link
     * ConnectionAdmission#RESUMPTION_TIMING_INTERVAL_NANOS} after the last one timed. By the accept time the
     * connection already has, so drawing costs no clock reading.
     */
    boolean timesResumption(long acceptNanos) {
        return resumptionTiming.draw(acceptNanos);
    }

    /**
     * The handshake is over, completed or abandoned after the server's first flight: its CPU time teaches
     * the budget what a handshake of its kind costs. Once per connection.
     */
    public void handshakeEnded(ConnectionAdmission connection) {
        if (connection.takeCostRecording()) {
            budget.handshakeCompleted(connection.truth(), connection.truthVersion(), connection.handshakeCpuNanos(),
                    connection.handshakeWallNanos());
        }
    }

    /** A connection waiting for its hello was closed by the slow-hello limits. */
    public void slowHelloClosed(SlowHelloReason reason) {
        counters.slowHello(reason);
    }

    /** {@code observe}: the slow-hello limits would have closed a connection waiting for its hello. */
    public void slowHelloWouldClose(SlowHelloReason reason) {
        counters.wouldRefuse(Verdict.INCOMPLETE);
    }

    @Override
    public String toString() {
        return "ConnectorGate[" + name + ", " + budget + ", refuseAction=" + refuseAction.attributeValue()
                + ", clientRenegotiation=" + clientRenegotiation.attributeValue() + ", mode=" + mode.attributeValue()
                + (slowHelloLimits == null ? "" : ", " + slowHelloLimits) + "]";
    }
}
