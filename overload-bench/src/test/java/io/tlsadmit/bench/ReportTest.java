package io.tlsadmit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReportTest {

    private static OverloadStep step(String mode, double multiplier, double driverCpuPercent) {
        return step(mode, 1, multiplier, 250, driverCpuPercent);
    }

    private static OverloadStep step(String mode, int round, double multiplier, double goodput,
                                     double driverCpuPercent) {
        return new OverloadStep(mode, multiplier, 100 * multiplier, 40, goodput, 100, 0, 0, 0, 100, 0, 0, 0, 0, 95,
                driverCpuPercent, 40, 120, 10, 50, 3, 40, GateTruth.ABSENT, round);
    }

    /** A mode's goodput at 1, 2, 4 and 8× in one round. */
    private static List<OverloadStep> sweep(String mode, int round, double... goodput) {
        double[] multipliers = {1, 2, 4, 8};
        return IntStream.range(0, multipliers.length)
                .mapToObj(i -> step(mode, round, multipliers[i], goodput[i], 40)).toList();
    }

    @Test
    void oneRoundReadsEachStepAgainstTheModesPeak() {
        String table = Report.ownPeak(sweep("adaptive", 1, 250, 280, 260, 250), 1);
        assertTrue(table.contains("| adaptive | 280 | 1.00 | 0.93 | 0.89 |"), table);
    }

    @Test
    void overRoundsTheMediansAreReadAgainstTheLargestMedianWithTheRoundsOwnRangeBeside() {
        // Round 2's 4x step fell in a slow spell (200): one round's fraction, not the median's.
        List<OverloadStep> steps = new ArrayList<>(sweep("adaptive", 1, 250, 280, 260, 250));
        steps.addAll(sweep("adaptive", 2, 250, 270, 200, 265));
        steps.addAll(sweep("adaptive", 3, 250, 275, 270, 268));
        steps.addAll(sweep("static", 1, 250, 250, 250, 250));
        steps.addAll(sweep("static", 2, 240, 240, 240, 240));
        String table = Report.ownPeak(steps, 3);
        assertTrue(table.contains("median of 3 rounds"), table);
        // medians 250, 275, 260, 265: the peak is 275; each round peaks at 2x; at 4x 0.93, 0.74, 0.98 of it, at 8x
        // 0.89, 0.98, 0.97
        assertTrue(table.contains("| adaptive | 275 | 1.00 (1.00–1.00) | 0.95 (0.74–0.98) | 0.96 (0.89–0.98) |"),
                table);
        // an even count's median is the middle two's mean: 245 at every load
        assertTrue(table.contains("| static | 245 | 1.00 (1.00–1.00) | 1.00 (1.00–1.00) | 1.00 (1.00–1.00) |"), table);
    }

    @Test
    void stepsTheDriverLimitedAreNamedInTheSummary() {
        String sentence = Report.driverBound(List.of(step("static", 4, 48), step("static", 8, 90),
                step("adaptive", 4, 89.9), step("adaptive", 8, 99.5)));
        assertTrue(sentence.contains("static 8.0x (90 %)"), sentence);
        assertTrue(sentence.contains("adaptive 8.0x (100 %)"), sentence);
        assertTrue(!sentence.contains("4.0x"), "steps under the limit are not named: " + sentence);
    }

    @Test
    void aRunWithinTheDriversMeansSaysSo() {
        assertEquals("The driver stayed under 90 % of its core in every step.",
                Report.driverBound(List.of(step("off", 1, 26), step("adaptive", 8, 45))));
    }
}
