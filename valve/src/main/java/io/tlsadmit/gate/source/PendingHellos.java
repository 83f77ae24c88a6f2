package io.tlsadmit.gate.source;

/**
 * Connections accepted whose ClientHello has not been decided yet, oldest first, with a count per
 * source. A legitimate client sends its hello within a round trip, so this set is small unless
 * someone opens connections and sends nothing, or trickles: then the limits below keep such
 * connections from taking every connection slot of the server.
 *
 * <ul>
 *   <li>{@code perSourceLimit}: a source (IPv4 /24, IPv6 /64) with that many pending already gets no
 *       more ({@link #add} answers false and the connection is closed at once);</li>
 *   <li>{@code limit}: when more are pending in all, the oldest is evicted ({@link #evictOldest}):
 *       a slow client is far more likely to be the oldest than a fresh one.</li>
 * </ul>
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

    /** @return false, adding nothing, when the source already has {@code perSourceLimit} pending */
    public synchronized boolean add(Entry entry, long source, long nowNanos) {
        if (entry.pending) {
            unlink(entry);
        }
        if (source != SourcePrefix.UNKNOWN && perSource.get(source) >= perSourceLimit) {
            return false;
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
        return true;
    }

    /** The hello was decided, or the connection closed; harmless when not pending. */
    public synchronized void remove(Entry entry) {
        if (entry.pending) {
            unlink(entry);
        }
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
