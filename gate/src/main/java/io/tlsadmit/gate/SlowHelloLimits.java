package io.tlsadmit.gate;

/**
 * How long and how many connections may wait for their ClientHello.
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
    /** When Tomcat's maxConnections is unlimited (-1). */
    static final int UNLIMITED_CONNECTIONS_PENDING = 10_000;

    /**
     * The limits from the attribute values (null = default) and Tomcat's own settings.
     *
     * @throws IllegalArgumentException naming the offending attribute
     */
    static SlowHelloLimits resolve(String helloTimeout, String maxPending, String maxPendingPerSource,
            int maxConnections, long connectionTimeoutMillis) {
        long timeout = helloTimeout == null ? DEFAULT_HELLO_TIMEOUT_MILLIS : parse(HELLO_TIMEOUT, helloTimeout, "ms");
        if (connectionTimeoutMillis > 0) {
            timeout = Math.min(timeout, connectionTimeoutMillis); // never longer than Tomcat would wait anyway
        }
        int pending = maxPending == null
                ? (maxConnections > 0 ? Math.max(1, maxConnections / 2) : UNLIMITED_CONNECTIONS_PENDING)
                : (int) Math.min(Integer.MAX_VALUE, parse(MAX_PENDING, maxPending, "connections"));
        int perSource = maxPendingPerSource == null ? Math.max(16, pending / 8)
                : (int) Math.min(Integer.MAX_VALUE, parse(MAX_PENDING_PER_SOURCE, maxPendingPerSource, "connections"));
        return new SlowHelloLimits(timeout, pending, Math.min(perSource, pending));
    }

    private static long parse(String attribute, String value, String unit) {
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed >= 1) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below in the user's terms
        }
        throw new IllegalArgumentException(attribute + " must be a whole number of " + unit + " >= 1, was \"" + value + "\"");
    }
}
