package io.tlsadmit.gate.source;

/**
 * Connections accepted whose ClientHello has not been decided yet, oldest first, with a count per
 * source. A legitimate client sends its hello within a round trip, so this set is small unless
 * someone opens connections and sends nothing, or trickles: then the limits below keep such
 * connections from taking every connection slot of the server.
 *
 * <ul>
 *   <li>{@code perSourceLimit}: when a source (IPv4 /24, IPv6 /64) has more pending, its oldest is
 *       evicted ({@link #evictOldestOf});</li>
 *   <li>{@code limit}: when more are pending in all, the oldest of all is evicted ({@link #evictOldest}).</li>
 * </ul>
 * Oldest first, because a client that sends its hello does so within a round trip: the one that has
 * waited longest is the one least likely to be legitimate, and a legitimate client that shares a /24
 * with an attacker still gets through, which refusing the newest would not allow.
 *
 * Entries belong to connections and are reused with them, so tracking allocates nothing. Thread-safe:
 * the acceptor adds, the workers remove; each call holds the lock for a few field updates.
 */
public final class PendingHellos {

    /** A connection's place in the set; one per connection object, reused. */
    public static final class Entry {
        private final Object owner;
        private long source;
        private long sinceNanos;
        private Entry older;
        private Entry newer;
        private boolean pending;

        public Entry(Object owner) {
            this.owner = owner;
        }

        /** The connection this entry belongs to. */
        public Object owner() {
            return owner;
        }

        public long sinceNanos() {
            return sinceNanos;
        }
    }

    private final int limit;
    private final int perSourceLimit;
    private final SourceCounts perSource = new SourceCounts();
    private Entry oldest;
    private Entry newest;
    private int size;

    /**
     * @param limit          pending hellos in all before the oldest is evicted, at least 1
     * @param perSourceLimit pending hellos per source before new ones are refused, at least 1
     */
    public PendingHellos(int limit, int perSourceLimit) {
        if (limit < 1 || perSourceLimit < 1) {
            throw new IllegalArgumentException("limits must be >= 1, were " + limit + " and " + perSourceLimit);
        }
        this.limit = limit;
        this.perSourceLimit = perSourceLimit;
    }

    /** A connection starts waiting for its hello; see {@link #evictOldestOf} and {@link #evictOldest} for the limits. */
    public synchronized void add(Entry entry, long source, long nowNanos) {
        if (entry.pending) {
            unlink(entry);
        }
        entry.source = source;
        entry.sinceNanos = nowNanos;
        entry.pending = true;
        entry.older = newest;
        entry.newer = null;
        if (newest == null) {
            oldest = entry;
        } else {
            newest.newer = entry;
        }
        newest = entry;
        size++;
        if (source != SourcePrefix.UNKNOWN) {
            perSource.increment(source);
        }
    }

    /** The hello was decided, or the connection closed; harmless when not pending. */
    public synchronized void remove(Entry entry) {
        if (entry.pending) {
            unlink(entry);
        }
    }

    /**
     * Removes and returns the oldest entry of {@code source} when it has more than {@code perSourceLimit}
     * pending; null otherwise. Walks from the oldest of all, which is quick when the source is the one
     * flooding (its entries are the old ones) and bounded by {@code limit} in any case.
     */
    public synchronized Entry evictOldestOf(long source) {
        if (source == SourcePrefix.UNKNOWN || perSource.get(source) <= perSourceLimit) {
            return null;
        }
        for (Entry e = oldest; e != null; e = e.newer) {
            if (e.source == source) {
                unlink(e);
                return e;
            }
        }
        return null;
    }

    /** Removes and returns the oldest entry while more than {@code limit} are pending; null otherwise. */
    public synchronized Entry evictOldest() {
        if (size <= limit) {
            return null;
        }
        Entry evicted = oldest;
        unlink(evicted);
        return evicted;
    }

    public synchronized int size() {
        return size;
    }

    public synchronized int pendingFrom(long source) {
        return perSource.get(source);
    }

    public int limit() {
        return limit;
    }

    public int perSourceLimit() {
        return perSourceLimit;
    }

    private void unlink(Entry entry) {
        if (entry.older == null) {
            oldest = entry.newer;
        } else {
            entry.older.newer = entry.newer;
        }
        if (entry.newer == null) {
            newest = entry.older;
        } else {
            entry.newer.older = entry.older;
        }
        entry.older = null;
        entry.newer = null;
        entry.pending = false;
        size--;
        if (entry.source != SourcePrefix.UNKNOWN) {
            perSource.decrement(entry.source);
        }
    }
}
