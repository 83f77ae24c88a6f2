package io.tlsadmit.gate.source;

/**
 * A new user is several connections, not one: a browser opens up to six at once for its first page.
 * When the budget admits a host's new connection, the host gets a short grace: its next new
 * connections within {@code windowNanos}, up to {@code extraConnections}, are admitted too (the gate
 * charges them to the budget on credit, so the rate still holds on average). Without it, with one
 * token left the gate admits one connection of the page and refuses the others: the page fails and
 * the admitted handshake was spent on nobody.
 *
 * <p>Keyed by host (an IPv4 address, an IPv6 /64), in a fixed table where a new host takes the place
 * of an expired one, or else of the one whose grace ends first. Thread-safe, allocation-free.
 */
public final class SessionGrace {

    private static final int PROBES = 8;

    private final long[] hosts;
    private final long[] until;
    private final int[] remaining;
    private final int extraConnections;
    private final long windowNanos;

    /**
     * @param capacity         hosts remembered at once, rounded up to a power of two
     * @param extraConnections further new connections a just-admitted host may open, 0 = no grace
     * @param windowNanos      how long after its admission a host may open them
     */
    public SessionGrace(int capacity, int extraConnections, long windowNanos) {
        if (capacity < PROBES || extraConnections < 0 || windowNanos <= 0) {
            throw new IllegalArgumentException("capacity >= " + PROBES + ", extra connections >= 0, window > 0");
        }
        int size = Integer.highestOneBit(capacity - 1) << 1;
        this.hosts = new long[size];
        this.until = new long[size];
        this.remaining = new int[size];
        this.extraConnections = extraConnections;
        this.windowNanos = windowNanos;
    }

    /** The budget admitted a new connection of {@code host} now: open (or renew) its grace. */
    public synchronized void admitted(long host, long nowNanos) {
        if (extraConnections == 0 || host == SourcePrefix.UNKNOWN) {
            return;
        }
        int mask = hosts.length - 1;
        int home = SourceCounts.mix(host) & mask;
        int slot = home;
        long soonest = Long.MAX_VALUE;
        for (int p = 0; p < PROBES; p++) {
            int i = (home + p) & mask;
            if (hosts[i] == host || hosts[i] == SourcePrefix.UNKNOWN || until[i] - nowNanos <= 0) {
                slot = i;
                break;
            }
            if (until[i] - nowNanos < soonest) {
                soonest = until[i] - nowNanos;
                slot = i;
            }
        }
        hosts[slot] = host;
        until[slot] = nowNanos + windowNanos;
        remaining[slot] = extraConnections;
    }

    /** Whether {@code host} may open one more new connection in its grace now; takes it if so. */
    public synchronized boolean take(long host, long nowNanos) {
        if (extraConnections == 0 || host == SourcePrefix.UNKNOWN) {
            return false;
        }
        int mask = hosts.length - 1;
        int home = SourceCounts.mix(host) & mask;
        for (int p = 0; p < PROBES; p++) {
            int i = (home + p) & mask;
            if (hosts[i] == host) {
                if (until[i] - nowNanos <= 0 || remaining[i] == 0) {
                    return false;
                }
                remaining[i]--;
                return true;
            }
        }
        return false;
    }

    public int extraConnections() {
        return extraConnections;
    }
}
