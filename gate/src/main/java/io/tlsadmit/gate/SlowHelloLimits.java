package io.tlsadmit.gate;

/**
 * How long and how many connections may wait for their ClientHello ({@link GateConfig#slowHelloLimits} resolves them
 * against the server's own limits).
 *
 * @param helloTimeoutMillis  longest wait for a complete hello, from accept
 * @param maxPending          connections waiting at once before the oldest is closed
 * @param maxPendingPerSource connections waiting at once from one source (IPv4 /24, IPv6 /64) before
 *                            further ones from it are closed at accept
 */
public record SlowHelloLimits(long helloTimeoutMillis, int maxPending, int maxPendingPerSource) {

    public static final String HELLO_TIMEOUT = "helloTimeout";
    public static final String MAX_PENDING = "maxPendingHellos";
    public static final String MAX_PENDING_PER_SOURCE = "maxPendingHellosPerSource";

    /** What a legitimate client needs is one round trip; 10 s covers a slow mobile link many times over. */
    static final long DEFAULT_HELLO_TIMEOUT_MILLIS = 10_000;
    /** When the server has no connection limit (Tomcat: maxConnections -1; Netty). */
    static final int UNLIMITED_CONNECTIONS_PENDING = 10_000;
}
