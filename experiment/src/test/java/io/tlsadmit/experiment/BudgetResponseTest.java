package io.tlsadmit.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetResponseTest {

    /** Samples every 100 ms: {@code rate(ms)}. */
    private static List<double[]> samples(long untilMs, java.util.function.LongToDoubleFunction rate) {
        List<double[]> out = new ArrayList<>();
        for (long ms = 100; ms < untilMs; ms += 100) {
            out.add(new double[] {ms, rate.applyAsDouble(ms)});
        }
        return out;
    }

    @Test
    void theTimeIsFromTheChangeToTheFirstSampleThatStaysWithinTenPercent() {
        // 100/s before 10 s; then 150 (10.0 s), 170 (10.1 s, 15 % off), 195 (10.2 s, in the band) and 200/s
        List<double[]> s = samples(20_000, ms -> ms < 10_000 ? 100 : ms < 10_100 ? 150 : ms < 10_200 ? 170 : ms < 10_300 ? 195 : 200);
        BudgetResponse r = BudgetResponse.of(s, 10_000, 20_000);
        assertEquals(100, r.before(), 1e-9);
        assertEquals(200, r.steady(), 1e-9);
        assertEquals(0.2, r.secondsToWithin10Percent(), 1e-9);
        assertEquals(0.2, r.secondsToFirstWithin10Percent(), 1e-9);
        assertEquals(1.0, r.shareWithin10Percent(), 1e-9);
    }

    @Test
    void anExcursionAfterReachingTheBandCountsFromWhereItLastLeftIt() {
        List<double[]> s = samples(20_000, ms -> ms < 10_000 ? 100 : ms >= 12_000 && ms < 12_500 ? 120 : 200);
        BudgetResponse r = BudgetResponse.of(s, 10_000, 20_000);
        assertEquals(2.5, r.secondsToWithin10Percent(), 1e-9);
        assertEquals(0.0, r.secondsToFirstWithin10Percent(), 1e-9, "in the band at the first sample");
        // samples from 11.0 s to 19.9 s: 90, of which 12.0-12.4 s (5) are out
        assertEquals(85.0 / 90, r.shareWithin10Percent(), 1e-9);
    }

    @Test
    void aRateThatNeverSettlesHasNoTime() {
        List<double[]> s = samples(20_000, ms -> ms < 10_000 ? 100 : (ms / 100) % 2 == 0 ? 100 : 300);
        BudgetResponse r = BudgetResponse.of(s, 10_000, 20_000);
        assertEquals(-1, r.secondsToWithin10Percent(), 1e-9);
        // 50 samples in the phase's second half, half of them 100 and half 300: the steady value is 200, which no
        // sample comes near
        assertEquals(200, r.steady(), 1e-9);
        assertEquals(-1, r.secondsToFirstWithin10Percent(), 1e-9);
        assertEquals(0, r.shareWithin10Percent(), 1e-9);
    }
}
