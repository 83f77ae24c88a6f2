package io.tlsadmit.admission.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LogHistogramTest {

    @Test
    void everyValueFallsInsideItsBucket() {
        long[] probes = {0, 1, 15, 16, 17, 31, 32, 33, 1_000, 1_500_000, 1L << 40, (1L << 40) - 1, Long.MAX_VALUE};
        for (long v : probes) {
            int i = LogHistogram.index(v);
            assertTrue(i >= 0 && i < LogHistogram.BUCKETS, "index of " + v);
            long lo = LogHistogram.lowerBound(i);
            assertTrue(lo <= v && v - lo < LogHistogram.width(i), v + " outside bucket [" + lo + ", +" + LogHistogram.width(i) + ")");
        }
    }

    @Test
    void bucketsTileTheNumberLineWithoutGaps() {
        for (int i = 1; i < LogHistogram.BUCKETS; i++) {
            assertEquals(LogHistogram.lowerBound(i - 1) + LogHistogram.width(i - 1), LogHistogram.lowerBound(i), "bucket " + i);
        }
    }

    @Test
    void percentilesAreWithinThreePercentOfTheTrueValue() {
        LogHistogram h = new LogHistogram();
        for (long v = 1; v <= 10_000; v++) {
            h.record(v * 1_000);
        }
        long[] counts = h.counts();
        assertEquals(5_000_000, LogHistogram.quantile(counts, 0.50), 5_000_000 * 0.032);
        assertEquals(9_900_000, LogHistogram.quantile(counts, 0.99), 9_900_000 * 0.032);
        assertEquals(1_000, LogHistogram.quantile(counts, 0.0), 1_000 * 0.032);
    }

    @Test
    void emptyHistogramReportsZero() {
        assertEquals(0, LogHistogram.quantile(new LogHistogram().counts(), 0.99));
    }
}
