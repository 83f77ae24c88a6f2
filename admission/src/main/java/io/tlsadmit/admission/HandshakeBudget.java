package io.tlsadmit.admission;

import java.util.Optional;

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
 *
 * <p>Every budget answers the same questions, so that a server adapter, its JMX view and its metrics
 * never ask which budget they hold: the operator's cap and burst (attributes {@code maxFullHandshakesPerSecond}
 * and {@code fullHandshakeBurst}), the bucket behind it, and the demand signals an adaptive budget learns from
 * (a static one ignores them). What only one kind of budget can tell (an adaptive controller's CPU readings)
 * is reached through {@link #view}.
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

    /**
     * As {@link #handshakeCompleted(HandshakeKind, int, long)}, with the wall time over which {@code cpuNanos} was
     * spent: the timed steps are the server's own work, never a wait for the network, so wall time beyond CPU time
     * is time the thread was runnable and found no CPU. An adaptive budget reads the CPUs' run queue from it.
     *
     * @param wallNanos wall time of the steps whose CPU {@code cpuNanos} is, 0 if unknown
     */
    default void handshakeCompleted(HandshakeKind kind, int tlsVersion, long cpuNanos, long wallNanos) {
        handshakeCompleted(kind, tlsVersion, cpuNanos);
    }

    /** The cap an operator sets ({@code maxFullHandshakesPerSecond}): a static budget's rate, an adaptive one's ceiling. */
    default double getMaxFullHandshakesPerSecond() {
        return fullHandshakesPerSecond();
    }

    /**
     * Changes the cap at once (an operator during an incident).
     *
     * @throws IllegalArgumentException naming the attribute, for a value out of range
     * @throws UnsupportedOperationException for a budget whose rate is not set by hand
     */
    default void setMaxFullHandshakesPerSecond(double rate) {
        throw new UnsupportedOperationException("this budget's rate is not set by hand: " + this);
    }

    /** The burst an operator set ({@code fullHandshakeBurst}; for an adaptive budget 0 = automatic); -1 if none. */
    default long getFullHandshakeBurst() {
        return -1;
    }

    /**
     * @throws IllegalArgumentException naming the attribute, for a value out of range
     * @throws UnsupportedOperationException for a budget without a burst set by hand
     */
    default void setFullHandshakeBurst(long burst) {
        throw new UnsupportedOperationException("this budget's burst is not set by hand: " + this);
    }

    /** The bucket the tokens come from, for its counters (granted, refused, refilled); {@code null} if none. */
    default TokenBucket bucket() {
        return null;
    }

    /** A new connection arrived; {@code predicted} is the classifier's view, admitted or not (demand). */
    default void recordArrival(HandshakeKind predicted) {
    }

    /**
     * How long work of a new connection waited for a thread, in nanoseconds: for a worker before its handshake
     * started, or, handed to threads of their own, for one of those.
     */
    default void recordQueueDelay(long nanos) {
    }

    /**
     * This budget seen as {@code type} (e.g. the adaptive controller, for its own readings), or empty when it
     * is not one: the way to what only one kind of budget offers, without asking callers to test concrete types.
     */
    default <T> Optional<T> view(Class<T> type) {
        return type.isInstance(this) ? Optional.of(type.cast(this)) : Optional.empty();
    }
}
