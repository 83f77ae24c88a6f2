package io.tlsadmit.gate;

/**
 * Which connection the current thread is handshaking, so that the key manager (called by the TLS
 * engine with no reference to our channel) can charge the right connection. Set for the duration
 * of one handshake step: the engine's delegated tasks run on the same thread within that step.
 */
public final class LateGate {

    private static final ThreadLocal<ConnectionAdmission> CURRENT = new ThreadLocal<>();

    private LateGate() {
    }

    public static void enter(ConnectionAdmission connection) {
        CURRENT.set(connection);
    }

    public static void exit() {
        CURRENT.remove();
    }

    /** The connection being handshaken on this thread; {@code null} outside a gated handshake. */
    public static ConnectionAdmission current() {
        return CURRENT.get();
    }
}
