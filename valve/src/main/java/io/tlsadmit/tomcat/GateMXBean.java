package io.tlsadmit.tomcat;

/**
 * The gate of one connector in JMX ({@code io.tlsadmit:type=Gate,connector="..."}): its counters, and
 * the budget an operator may change at runtime, e.g. lower during an incident.
 */
public interface GateMXBean {

    String getConnector();

    String getBudget();

    String getRefuseAction();

    /** Whether the acceptor peeks at hellos with native-peek (attribute on and library loaded). */
    boolean isNativePeek();

    /** Connections decided on the acceptor from a native peek (the rest are decided at their first read). */
    long getDecidedOnAccept();

    /**
     * The cap: with {@code budget="static"} the rate itself, with {@code adaptive} the ceiling of the computed
     * rate. Reading and writing the same thing, so a value copied from a console does not freeze anything.
     */
    double getMaxFullHandshakesPerSecond();

    /** The rate the budget admits new full handshakes at now (read-only; adaptive: the live computed rate). */
    double getFullHandshakesPerSecond();

    /** @throws IllegalArgumentException for a negative or non-finite value */
    void setMaxFullHandshakesPerSecond(double rate);

    long getFullHandshakeBurst();

    /** @throws IllegalArgumentException for a negative value */
    void setFullHandshakeBurst(long burst);

    double getAvailableTokens();

    long getNewAdmitted();

    long getNewRefused();

    long getResumptionsAdmitted();

    /** Connections whose first bytes were not a TLS handshake: NOT_TLS, SSLV2, MALFORMED. */
    long getNonHandshakesRefused();

    /** Connections closed before their ClientHello was complete (silent, truncated, too slow). */
    long getIncompleteClosed();

    /** Predicted resumptions that needed a full handshake and found the budget empty. */
    long getLateRefusals();

    long getFullHandshakes();

    long getResumedHandshakes();

    long getMispredictions();

    /** {@code enforce} or {@code observe}. */
    String getMode();

    /** Refusals counted instead of made ({@code mode="observe"}). */
    long getWouldRefuse();

    /** Connections from {@code bypassAddresses}, and the {@code warmUpRequests} warm-up's at start. */
    long getBypassed();

    /** TLS 1.2 renegotiations a client started and the gate refused (clientRenegotiation="refuse"). */
    long getClientRenegotiationsRefused();

    /** Connections accepted and still waiting for their ClientHello. */
    int getHellosPending();

    /** Connections closed by the slow-hello limits (timeout, eviction, per-source limit). */
    long getSlowHellosClosed();

    /** Sources (IPv4 /24, IPv6 /64) whose offers to resume are distrusted now. */
    int getDistrustedSources();
}
