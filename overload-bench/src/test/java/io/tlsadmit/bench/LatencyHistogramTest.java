package io.tlsadmit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void quantilesAreWithinABucketOfTheTruth() {
        LatencyHistogram h = new LatencyHistogram();
        for (int ms = 1; ms <= 100; ms++) {
            h.record(ms * 1_000_000L);
        }
        assertEquals(100, h.count());
        assertEquals(50, h.quantileMillis(0.5), 50 * 0.07);
        assertEquals(99, h.quantileMillis(0.99), 99 * 0.07);
    }

    @Test
    void bucketsAreMonotonicAndCoverTheirValues() {
        for (long micros = 1; micros < 50_000_000; micros = micros * 3 / 2 + 1) {
            int i = LatencyHistogram.index(micros);
            assertTrue(LatencyHistogram.lowerBound(i) <= micros, "lower bound of " + micros);
            assertTrue(LatencyHistogram.index(micros + 1) >= i, "monotonic at " + micros);
        }
    }

    @Test
    void noSamplesHaveNoQuantile() {
        assertTrue(Double.isNaN(new LatencyHistogram().quantileMillis(0.5)));
    }
}
