package io.tlsadmit.gate.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PendingHellosTest {

    private static long source(String address) {
        return SourcePrefix.of(new InetSocketAddress(address, 1));
    }

    private static PendingHellos.Entry entry(String name) {
        return new PendingHellos.Entry(name);
    }

    @Test
    void overTheLimitTheOldestIsEvictedFirst() {
        PendingHellos pending = new PendingHellos(2, 10);
        PendingHellos.Entry first = entry("first");
        PendingHellos.Entry second = entry("second");
        PendingHellos.Entry third = entry("third");
        pending.add(first, source("192.0.2.1"), 1);
        pending.add(second, source("192.0.2.2"), 2);
        assertNull(pending.evictOldest(), "at the limit, not over it");
        pending.add(third, source("198.51.100.1"), 3);
        assertSame(first, pending.evictOldest());
        assertNull(pending.evictOldest());
        assertEquals(2, pending.size());
        assertEquals(1, pending.pendingFrom(source("192.0.2.200")), "the evicted one no longer counts for its /24");
    }

    @Test
    void aSourceOverItsLimitLosesItsOwnOldestNotAnotherSourcesOlderOne() {
        PendingHellos pending = new PendingHellos(100, 2);
        PendingHellos.Entry elsewhere = entry("elsewhere");
        PendingHellos.Entry a = entry("a");
        PendingHellos.Entry b = entry("b");
        pending.add(elsewhere, source("198.51.100.1"), 0);
        pending.add(a, source("192.0.2.1"), 1);
        pending.add(b, source("192.0.2.99"), 2);
        assertNull(pending.evictOldestOf(source("192.0.2.5")), "at its limit, not over it");
        pending.add(entry("c"), source("192.0.2.3"), 3);
        assertSame(a, pending.evictOldestOf(source("192.0.2.3")), "same /24: its oldest goes");
        assertNull(pending.evictOldestOf(source("192.0.2.3")));
        assertEquals(3, pending.size());
        assertEquals(2, pending.pendingFrom(source("192.0.2.0")));
        assertEquals(1, pending.pendingFrom(source("198.51.100.0")));
    }

    @Test
    void removingTwiceOrAnEntryNeverAddedChangesNothing() {
        PendingHellos pending = new PendingHellos(10, 10);
        PendingHellos.Entry a = entry("a");
        pending.remove(a);
        pending.add(a, source("192.0.2.1"), 1);
        pending.remove(a);
        pending.remove(a);
        assertEquals(0, pending.size());
        assertEquals(0, pending.pendingFrom(source("192.0.2.1")));
    }

    @Test
    void countsStayExactThroughManySourcesComingAndGoing() {
        PendingHellos pending = new PendingHellos(Integer.MAX_VALUE, Integer.MAX_VALUE);
        Random random = new Random(7);
        List<PendingHellos.Entry> live = new ArrayList<>();
        List<Long> sources = new ArrayList<>();
        int[] expected = new int[300];
        for (int step = 0; step < 20_000; step++) {
            if (live.isEmpty() || random.nextInt(3) > 0) {
                int s = random.nextInt(expected.length);
                long key = source("10." + (s / 256) + "." + (s % 256) + ".1");
                PendingHellos.Entry e = entry("e" + step);
                pending.add(e, key, step);
                live.add(e);
                sources.add((long) s);
                expected[s]++;
            } else {
                int i = random.nextInt(live.size());
                pending.remove(live.remove(i));
                expected[(int) (long) sources.remove(i)]--;
            }
        }
        for (int s = 0; s < expected.length; s++) {
            assertEquals(expected[s], pending.pendingFrom(source("10." + (s / 256) + "." + (s % 256) + ".9")), "source " + s);
        }
        assertEquals(live.size(), pending.size());
    }
}
