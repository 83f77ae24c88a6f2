package io.tlsadmit.gate;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLEngine;

/**
 * Which connection an {@link SSLEngine} belongs to, so that a key manager, which the TLS engine
 * calls with the engine and nothing else, can charge the right connection. Keyed by the engine
 * itself rather than by the thread: the engine's delegated tasks may run on any thread, and a
 * renegotiation runs inside a read, not inside the handshake step. A channel binds its engine when it
 * creates it and unbinds it when the connection ends.
 */
public final class LateGate {

    private static final Map<SSLEngine, ConnectionAdmission> CONNECTIONS = new ConcurrentHashMap<>();

    private LateGate() {
    }

    public static void bind(SSLEngine engine, ConnectionAdmission connection) {
        CONNECTIONS.put(engine, connection);
    }

    public static void unbind(SSLEngine engine) {
        CONNECTIONS.remove(engine);
    }

    /** The gated connection of this engine; {@code null} for an engine no gate created. */
    public static ConnectionAdmission of(SSLEngine engine) {
        return engine == null ? null : CONNECTIONS.get(engine);
    }

    /** Engines bound now: for tests that check nothing leaks. */
    public static int bound() {
        return CONNECTIONS.size();
    }
}
