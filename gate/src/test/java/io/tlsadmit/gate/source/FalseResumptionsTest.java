package io.tlsadmit.gate.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class FalseResumptionsTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long HALF_LIFE = 30 * SECOND;

    private static long source(String address) {
        return SourcePrefix.of(new InetSocketAddress(address, 1));
    }

    @Test
    void distrustedAtTheThresholdAndTrustedAgainAsTheScoreHalves() {
        FalseResumptions ledger = new FalseResumptions(64, 3, HALF_LIFE);
        long forger = source("192.0.2.10");
        ledger.record(forger, 0);
        ledger.record(forger, 0);
        assertFalse(ledger.isDistrusted(forger, 0), "two false offers: a server restart's stale tickets look like this");
        ledger.record(forger, 0);
        assertTrue(ledger.isDistrusted(source("192.0.2.77"), 0), "the whole /24");
        assertFalse(ledger.isDistrusted(source("192.0.3.10"), 0));
        assertEquals(1.5, ledger.score(forger, HALF_LIFE), 1e-9);
        assertFalse(ledger.isDistrusted(forger, HALF_LIFE));
        assertEquals(1, ledger.distrustedSources(0));
    }

    @Test
    void aFloodOfOneOffSourcesDoesNotPushOutOneThatKeepsForging() {
        FalseResumptions ledger = new FalseResumptions(64, 3, HALF_LIFE);
        long forger = source("203.0.113.5");
        for (int i = 0; i < 10; i++) {
            ledger.record(forger, 0);
        }
        for (int i = 0; i < 10_000; i++) {
            ledger.record(source("10." + (i / 256) + "." + (i % 256) + ".1"), SECOND);
        }
        assertTrue(ledger.isDistrusted(forger, SECOND));
    }

    @Test
    void unknownSourcesAreNeverCounted() {
        FalseResumptions ledger = new FalseResumptions(64, 1, HALF_LIFE);
        ledger.record(SourcePrefix.UNKNOWN, 0);
        assertFalse(ledger.isDistrusted(SourcePrefix.UNKNOWN, 0));
    }
}
