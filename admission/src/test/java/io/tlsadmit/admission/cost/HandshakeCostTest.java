package io.tlsadmit.admission.cost;

import static io.tlsadmit.admission.HandshakeKind.FULL;
import static io.tlsadmit.admission.HandshakeKind.RESUMED;
import static io.tlsadmit.admission.cost.CostedVersion.TLS_1_2;
import static io.tlsadmit.admission.cost.CostedVersion.TLS_1_3;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandshakeCostTest {

    @Test
    void firstSampleReplacesTheUnknownAverage() {
        HandshakeCost cost = new HandshakeCost();
        assertTrue(Double.isNaN(cost.ewmaNanos(FULL)));
        cost.record(FULL, TLS_1_3, 1_500_000);
        assertEquals(1_500_000, cost.ewmaNanos(FULL));
    }

    @Test
    void afterTheWarmUpTheAverageMovesByAlphaTowardsEachNewSample() {
        HandshakeCost cost = new HandshakeCost(0.25);
        for (int i = 0; i < CostSeries.WARM_UP_SAMPLES; i++) {
            cost.record(FULL, TLS_1_2, 1_000_000);
        }
        cost.record(FULL, TLS_1_2, 2_000_000);
        assertEquals(1_250_000, cost.ewmaNanos(FULL), 1e-6);
    }

    @Test
    void duringTheWarmUpTheEstimateIsTheMedianSoColdJvmOutliersAreOutvoted() {
        HandshakeCost cost = new HandshakeCost();
        cost.record(FULL, TLS_1_3, 63_000_000); // the first handshake of a cold JVM
        assertEquals(63_000_000, cost.ewmaNanos(FULL));
        cost.record(FULL, TLS_1_3, 20_000_000);
        cost.record(FULL, TLS_1_3, 1_500_000);
        cost.record(FULL, TLS_1_3, 1_400_000);
        cost.record(FULL, TLS_1_3, 1_600_000);
        assertEquals(1_600_000, cost.ewmaNanos(FULL), "the median of five, two of them cold");
        for (int i = 5; i < CostSeries.WARM_UP_SAMPLES; i++) {
            cost.record(FULL, TLS_1_3, 1_500_000);
        }
        assertEquals(1_500_000, cost.ewmaNanos(FULL), "the EWMA starts from the warm-up median");
    }

    @Test
    void averageFollowsACertificateThreeTimesAsExpensive() {
        HandshakeCost cost = new HandshakeCost();
        for (int i = 0; i < 100; i++) {
            cost.record(FULL, TLS_1_3, 1_000_000);
        }
        for (int i = 0; i < 50; i++) {
            cost.record(FULL, TLS_1_3, 3_000_000);
        }
        assertEquals(3_000_000, cost.ewmaNanos(FULL), 3_000_000 * 0.02);
    }

    @Test
    void unknownCpuTimeIsNotRecorded() {
        HandshakeCost cost = new HandshakeCost();
        cost.record(FULL, TLS_1_3, 2_000_000);
        cost.record(FULL, TLS_1_3, 0);
        cost.record(FULL, TLS_1_3, -5);
        assertEquals(1, cost.count(FULL));
        assertEquals(2_000_000, cost.ewmaNanos(FULL));
    }

    @Test
    void kindsAndVersionsAreKeptApartButEachKindAlsoHasATotal() {
        HandshakeCost cost = new HandshakeCost();
        cost.record(FULL, TLS_1_2, 1_200_000);
        cost.record(FULL, TLS_1_3, 1_600_000);
        cost.record(RESUMED, TLS_1_2, 160_000);
        cost.record(RESUMED, TLS_1_3, 550_000);

        assertEquals(1, cost.snapshot(FULL, TLS_1_2).count());
        assertEquals(550_000, cost.snapshot(RESUMED, TLS_1_3).totalNanos());
        assertEquals(2, cost.count(FULL));
        assertEquals(2_800_000, cost.totalNanos(FULL));
        assertEquals(710_000, cost.totalNanos(RESUMED));
        assertEquals(2, cost.snapshots().get(RESUMED).size());
        assertEquals(0, cost.snapshot(FULL, CostedVersion.OTHER).count());
    }

    @Test
    void snapshotReportsPercentilesAndMaximum() {
        HandshakeCost cost = new HandshakeCost();
        for (int i = 1; i <= 100; i++) {
            cost.record(RESUMED, TLS_1_3, i * 10_000L);
        }
        CostSnapshot s = cost.snapshot(RESUMED, TLS_1_3);
        assertEquals(100, s.count());
        assertEquals(505_000, s.meanNanos(), 1e-6);
        assertEquals(500_000, s.p50Nanos(), 500_000 * 0.032);
        assertEquals(990_000, s.p99Nanos(), 990_000 * 0.032);
        assertEquals(1_000_000, s.maxNanos());
    }

    @Test
    void wireVersionsMapToTheirSeries() {
        assertEquals(TLS_1_2, CostedVersion.fromWire(0x0303));
        assertEquals(TLS_1_3, CostedVersion.fromWire(0x0304));
        assertEquals(CostedVersion.OTHER, CostedVersion.fromWire(0x0301));
        assertEquals("1.3", TLS_1_3.label());
    }

    @Test
    void concurrentRecordsAreAllCounted() throws InterruptedException {
        HandshakeCost cost = new HandshakeCost();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    cost.record(FULL, TLS_1_3, 1_000_000);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(60_000, cost.count(FULL));
        assertEquals(60_000L * 1_000_000, cost.totalNanos(FULL));
        assertEquals(60_000, cost.snapshot(FULL, TLS_1_3).count());
        assertEquals(1_000_000, cost.ewmaNanos(FULL), 1e-6);
    }

    @Test
    void rejectsAnAlphaOutsideTheUnitInterval() {
        assertThrows(IllegalArgumentException.class, () -> new HandshakeCost(0));
        assertThrows(IllegalArgumentException.class, () -> new HandshakeCost(1.5));
    }

    @Test
    void bucketCountsAreCumulativeWithInclusiveBoundsAndEndWithEveryHandshake() {
        HandshakeCost cost = new HandshakeCost();
        cost.record(FULL, TLS_1_3, 40_000);        // below the first bound
        cost.record(FULL, TLS_1_3, 100_000);       // exactly on the second: counted there (le is inclusive)
        cost.record(FULL, TLS_1_3, 2_000_000);     // between 1 ms and 2.5 ms
        cost.record(FULL, TLS_1_3, 5_000_000_000L); // above every bound: only in +Inf
        cost.record(RESUMED, TLS_1_3, 60_000);     // another series

        long[] counts = cost.cumulativeBucketCounts(FULL, TLS_1_3);
        assertEquals(CpuTimeBuckets.size() + 1, counts.length);
        for (int i = 0; i < CpuTimeBuckets.size(); i++) {
            double bound = CpuTimeBuckets.upperBoundSeconds(i);
            long expected = (bound >= 40e-6 ? 1 : 0) + (bound >= 100e-6 ? 1 : 0) + (bound >= 2e-3 ? 1 : 0);
            assertEquals(expected, counts[i], "le=" + bound);
        }
        assertEquals(4, counts[CpuTimeBuckets.size()], "+Inf holds every handshake");
        assertEquals(0, cost.cumulativeBucketCounts(FULL, TLS_1_2)[CpuTimeBuckets.size()]);
    }

    @Test
    void bucketBoundsRiseFromFiftyMicrosecondsToOneSecond() {
        assertEquals(50e-6, CpuTimeBuckets.upperBoundSeconds(0), 1e-12);
        assertEquals(1.0, CpuTimeBuckets.upperBoundSeconds(CpuTimeBuckets.size() - 1), 1e-12);
        for (int i = 1; i < CpuTimeBuckets.size(); i++) {
            assertTrue(CpuTimeBuckets.upperBoundSeconds(i) > CpuTimeBuckets.upperBoundSeconds(i - 1));
        }
    }
}
