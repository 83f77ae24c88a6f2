package io.tlsadmit.gate;

import java.util.Locale;

/** Why a connection still waiting for its ClientHello was closed by the gate. */
public enum SlowHelloReason {
    /** No complete hello within {@code helloTimeout} of accept. */
    TIMEOUT,
    /** The oldest of more than {@code maxPendingHellos} waiting, closed for a newer connection. */
    EVICTED,
    /** The oldest of more than {@code maxPendingHellosPerSource} waiting from its source, closed for a newer one. */
    SOURCE_LIMIT;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
