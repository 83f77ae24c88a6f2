package io.tlsadmit.gate.source;

/**
 * A count per source prefix, for prefixes with a count above zero: open addressing with linear
 * probing and backward-shift deletion, so counting a connection in and out allocates nothing once
 * the table has grown to the number of sources present at once. Not thread-safe.
 */
final class SourceCounts {

    private long[] keys = new long[64];
    private int[] counts = new int[64];
    private int size;

    int get(long source) {
        int slot = find(source);
        return slot < 0 ? 0 : counts[slot];
    }

    /** @return the count after adding one */
    int increment(long source) {
        int slot = find(source);
        if (slot >= 0) {
            return ++counts[slot];
        }
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = mix(source) & mask; ; i = (i + 1) & mask) {
            if (keys[i] == SourcePrefix.UNKNOWN) {
                keys[i] = source;
                counts[i] = 1;
                size++;
                return 1;
            }
        }
    }

    void decrement(long source) {
        int slot = find(source);
        if (slot < 0) {
            return;
        }
        if (--counts[slot] == 0) {
            delete(slot);
        }
    }

    int sources() {
        return size;
    }

    private int find(long source) {
        int mask = keys.length - 1;
        for (int i = mix(source) & mask; ; i = (i + 1) & mask) {
            if (keys[i] == source) {
                return i;
            }
            if (keys[i] == SourcePrefix.UNKNOWN) {
                return -1;
            }
        }
    }

    /** Moves later members of the probe run back into the hole, so lookups never stop early. */
    private void delete(int hole) {
        int mask = keys.length - 1;
        size--;
        for (int i = (hole + 1) & mask; keys[i] != SourcePrefix.UNKNOWN; i = (i + 1) & mask) {
            int home = mix(keys[i]) & mask;
            // Movable when its home is not in the cyclic range (hole, i].
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                keys[hole] = keys[i];
                counts[hole] = counts[i];
                hole = i;
            }
        }
        keys[hole] = SourcePrefix.UNKNOWN;
        counts[hole] = 0;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldCounts = counts;
        keys = new long[oldKeys.length * 2];
        counts = new int[oldKeys.length * 2];
        size = 0;
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldKeys[j] != SourcePrefix.UNKNOWN) {
                int i = mix(oldKeys[j]) & mask;
                while (keys[i] != SourcePrefix.UNKNOWN) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                counts[i] = oldCounts[j];
                size++;
            }
        }
    }

    /** Prefixes differ in their low bits (IPv4 /24) or high bits (IPv6 /64): spread both over the table. */
    static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
