package io.tlsadmit.experiment.step;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class KneeSearchTest {

    @Test
    void ratesDoubleFromTheStart() {
        KneeSearch search = new KneeSearch(5);
        assertEquals(5, search.nextRate());
        search.record(5, 100);
        assertEquals(10, search.nextRate());
        search.record(10, 200);
        assertEquals(20, search.nextRate());
    }

    @Test
    void theSearchEndsAfterTwoDoublingsWithoutGrowthAndTheKneeIsThePeak() {
        KneeSearch search = new KneeSearch(10);
        double[][] measured = {{10, 150}, {20, 300}, {40, 580}, {80, 600}, {160, 240}};
        for (double[] step : measured) {
            assertEquals(step[0], search.nextRate());
            search.record(step[0], step[1]);
        }
        // 80 grew by 3 % over 40's 580: noise, not growth; 160 collapsed
        assertTrue(Double.isNaN(search.nextRate()));
        assertEquals(80, search.knee());
    }

    @Test
    void aPlateauEndsTheSearch() {
        KneeSearch search = new KneeSearch(10);
        search.record(10, 500);
        search.record(20, 505);
        search.record(40, 498);
        assertTrue(Double.isNaN(search.nextRate()));
        assertEquals(20, search.knee());
    }

    @Test
    void aServerThatNeverSaturatesStopsTheSearchAfterEightSteps() {
        KneeSearch search = new KneeSearch(1);
        for (int i = 0; i < KneeSearch.MAX_STEPS; i++) {
            double rate = search.nextRate();
            search.record(rate, rate * 10);
        }
        assertTrue(Double.isNaN(search.nextRate()));
        assertEquals(128, search.knee());
    }

    @Test
    void onATieTheLowerRateIsTheKnee() {
        assertEquals(20, KneeSearch.kneeOf(List.of(new double[] {40, 700}, new double[] {20, 700},
                new double[] {10, 300})));
    }

    @Test
    void noStepsNoKnee() {
        assertThrows(IllegalStateException.class, () -> new KneeSearch(4).knee());
        assertThrows(IllegalArgumentException.class, () -> new KneeSearch(0));
    }

    /** A simulated stock server: replies grow with the load up to its knee, then it collapses. */
    private static double collapsingServer(double knee, double rate) {
        double perUser = 18;
        return rate <= knee ? perUser * rate : Math.max(0, perUser * knee * (1 - 3 * (rate - knee) / knee));
    }

    private static KneeSearch run(KneeSearch search, java.util.function.DoubleUnaryOperator server,
            List<Double> asked) {
        for (double rate = search.nextRate(); !Double.isNaN(rate); rate = search.nextRate()) {
            asked.add(rate);
            search.record(rate, server.applyAsDouble(rate));
        }
        return search;
    }

    @Test
    void bisectionNarrowsTheDoublingsBracketToTheResolution() {
        List<Double> asked = new java.util.ArrayList<>();
        KneeSearch search = run(new KneeSearch(10, KneeSearch.Resolution.parse("10%")),
                rate -> collapsingServer(107, rate), asked);
        // doubling: 10..80 grow, 160 and 320 collapse; then 80..160 is bisected: 120 collapsed, 100 held,
        // 110 collapsed; 110 - 100 <= 10 % of 100
        assertEquals(List.of(10.0, 20.0, 40.0, 80.0, 160.0, 320.0, 120.0, 100.0, 110.0), asked);
        assertEquals(100, search.knee());
    }

    @Test
    void anAbsoluteResolutionBisectsFurther() {
        List<Double> asked = new java.util.ArrayList<>();
        KneeSearch search = run(new KneeSearch(10, KneeSearch.Resolution.parse("3")),
                rate -> collapsingServer(107, rate), asked);
        // 107.5 is just past the true knee, but the simulated collapse is gradual: it still grew enough
        assertEquals(List.of(120.0, 100.0, 110.0, 105.0, 107.5), asked.subList(6, asked.size()));
        assertEquals(107.5, search.knee());
    }

    @Test
    void aMidpointThatGrowsLessThanTheDoublingsCriterionProRataDidNotHold() {
        // a plateau past 80: 120 brings 1 % more, below 5 % per doubling pro rata (2.9 % for 1.5x)
        List<Double> asked = new java.util.ArrayList<>();
        KneeSearch search = run(new KneeSearch(10, KneeSearch.Resolution.parse("10%")),
                rate -> rate <= 80 ? 18 * rate : 18 * 80 * (1 + 0.01 * Math.min(1, (rate - 80) / 40)), asked);
        assertEquals(List.of(120.0, 100.0, 90.0, 85.0), asked.subList(6, asked.size()));
        assertEquals(80, search.knee());
    }

    @Test
    void withoutAResolutionTheKneeIsTheBestDoubling() {
        List<Double> asked = new java.util.ArrayList<>();
        KneeSearch search = run(new KneeSearch(10, KneeSearch.Resolution.parse("off")),
                rate -> collapsingServer(107, rate), asked);
        assertEquals(6, asked.size());
        assertEquals(80, search.knee());
    }

    @Test
    void aServerThatNeverSaturatesHasNoBracketToBisect() {
        KneeSearch search = run(new KneeSearch(1, KneeSearch.Resolution.DEFAULT), rate -> rate * 10,
                new java.util.ArrayList<>());
        assertEquals(128, search.knee());
    }

    /**
     * A simulated stock server with capacity for 50 new users/s: for the length of a step it answers about as fast as
     * users arrive even past that (the queue builds, it has not collapsed yet), but its p99 is then seconds.
     */
    private static double queueingServerThroughput(double rate) {
        return 18 * Math.min(rate, 51);
    }

    private static double queueingServerP99(double rate) {
        return rate <= 50 ? 70 / (1 - 0.8 * rate / 50) : 5000;
    }

    @Test
    void throughputAloneTakesAGrowingQueueForGrowth() {
        List<Double> asked = new java.util.ArrayList<>();
        KneeSearch search = run(new KneeSearch(4, KneeSearch.Resolution.DEFAULT),
                KneeSearchTest::queueingServerThroughput, asked);
        assertEquals(64, search.knee(), "what the search found before the latency bound: " + asked);
    }

    @Test
    void aStepWhosePageP99LeftTheBoundDidNotHoldAndEndsTheDoubling() {
        List<Double> asked = new java.util.ArrayList<>();
        List<Boolean> held = new java.util.ArrayList<>();
        KneeSearch search = new KneeSearch(4, KneeSearch.Resolution.DEFAULT);
        for (double rate = search.nextRate(); !Double.isNaN(rate); rate = search.nextRate()) {
            asked.add(rate);
            search.record(rate, queueingServerThroughput(rate), queueingServerP99(rate));
            held.add(search.lastHeld());
        }
        // 64 grew (918 replies/s over 576) but its p99 is 71x the start rate's: doubling ends there, and the
        // bisection of 32..64 applies the same bound; 48..52 is within 10 % of 48
        assertEquals(List.of(4.0, 8.0, 16.0, 32.0, 64.0, 48.0, 56.0, 52.0), asked);
        assertEquals(List.of(true, true, true, true, false, true, false, false), held);
        assertEquals(48, search.knee());
    }

    @Test
    void withoutAResolutionTheKneeIsTheBestDoublingWithinTheLatencyBound() {
        KneeSearch search = new KneeSearch(4, KneeSearch.Resolution.NONE);
        for (double rate = search.nextRate(); !Double.isNaN(rate); rate = search.nextRate()) {
            search.record(rate, queueingServerThroughput(rate), queueingServerP99(rate));
        }
        assertEquals(32, search.knee());
    }

    @Test
    void aStepWithNoPagesHasNoP99AndItsThroughputDecides() {
        KneeSearch search = new KneeSearch(4, KneeSearch.Resolution.DEFAULT);
        search.record(4, 72, 70);
        search.record(8, 0, Double.NaN);
        assertFalse(search.lastHeld(), "nothing came back: no growth");
        assertEquals(4, search.knee());
    }

    @Test
    void aSweepsKneeIsItsBestThroughputWithinTheLatencyBound() {
        // bin/demo's stock sweep on 2026-11-27 (replies/s, page p99 ms): 80 users/s served a little more than 40, with
        // a p99 of 2.1 s; 160 and 320 collapsed (no page at 320)
        List<double[]> sweep = List.of(new double[] {80, 635, 2115}, new double[] {10, 158, 77},
                new double[] {320, 0, Double.NaN}, new double[] {20, 301, 94}, new double[] {160, 30, 9287},
                new double[] {40, 602, 235});
        assertEquals(40, KneeSearch.kneeOfSweep(sweep));
        List<double[]> noLatency = sweep.stream().map(p -> new double[] {p[0], p[1], Double.NaN}).toList();
        assertEquals(80, KneeSearch.kneeOfSweep(noLatency), "throughput alone, as before the bound");
        assertThrows(IllegalStateException.class, () -> KneeSearch.kneeOfSweep(List.of()));
    }

    @Test
    void theResolutionNamesItsOptionWhenWrong() {
        for (String bad : new String[] {"0", "-3", "100%", "x", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> KneeSearch.Resolution.parse(bad));
            assertTrue(e.getMessage().contains("--knee-resolution"), e.getMessage());
        }
        assertEquals(8, KneeSearch.Resolution.parse("8").width(100));
        assertEquals(12, KneeSearch.Resolution.parse("10%").width(120), 1e-9);
    }
}
