package io.tlsadmit.loadtests.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void percentilesAreTheSmallestTimesCoveringTheirShare() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int millis = 1; millis <= 100; millis++) {
            histogram.record(millis);
        }
        assertEquals(50, histogram.percentile(0.50));
        assertEquals(95, histogram.percentile(0.95));
        assertEquals(99, histogram.percentile(0.99));
        assertEquals(100, histogram.percentile(1.0));
        assertEquals(50.5, histogram.mean(), 1e-9);
    }

    @Test
    void timesBeyondAMinuteShareTheLastBucket() {
        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(5);
        histogram.record(3_600_000);
        histogram.record(-3);
        assertEquals(3, histogram.count());
        assertEquals(60_000, histogram.percentile(0.99));
        assertEquals(0, histogram.percentile(0.01));
    }

    @Test
    void anEmptyHistogramHasNoPercentiles() {
        assertEquals(-1, new LatencyHistogram().percentile(0.5));
    }
}
