package io.tlsadmit.admission;

/**
 * The budget for <em>new</em> full TLS handshakes.
 *
 * <p>A gate asks {@link #tryAcquireFull()} once for each connection it believes will need a full
 * handshake, before any cryptography runs, and refuses the connection when the answer is
 * {@code false}. Resumptions are never charged: they are what keeps already admitted clients
 * productive, and refusing them would turn overload into lost work (the point of the 2005
 * session-aware admission papers this project follows).
 *
 * <p>Implementations are thread-safe and never block: the caller is an acceptor or a network
 * thread and must not wait for a token.
 */
public interface HandshakeBudget {

    /** Takes one token for a new full handshake now; {@code false} means refuse the connection. */
    boolean tryAcquireFull();

    /**
     * Takes one token for a new full handshake even if none is left, going into debt by at most
     * {@code maxDebt} tokens that later refills repay: for the further connections of a user admitted
     * a moment ago, which a browser opens in parallel for one page. Paid for, so the rate holds on
     * average; {@code false} when the debt would exceed {@code maxDebt} or the rate is 0.
     */
    boolean tryAcquireFullOnCredit(long maxDebt);

    /** The current refill rate, in new full handshakes per second. */
    double fullHandshakesPerSecond();

    /** The tokens available now; for metrics only, the value may be stale by the time it is read. */
    double availableTokens();

    /**
     * The truth about a finished handshake and the server CPU time it took.
     *
     * <p>Adaptive budgets learn the cost of a handshake from this; a static budget ignores it.
     *
     * @param kind       what the handshake really was, from the ServerHello
     * @param tlsVersion the negotiated protocol version as on the wire, e.g. {@code 0x0303} for
     *                   TLS 1.2 and {@code 0x0304} for TLS 1.3
     * @param cpuNanos   server CPU time spent on the handshake in nanoseconds, 0 if unknown
     */
    default void handshakeCompleted(HandshakeKind kind, int tlsVersion, long cpuNanos) {
    }
}
