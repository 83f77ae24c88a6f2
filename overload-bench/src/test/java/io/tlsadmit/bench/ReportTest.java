package io.tlsadmit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {

    private static OverloadStep step(String mode, double multiplier, double driverCpuPercent) {
        return new OverloadStep(mode, multiplier, 100 * multiplier, 40, 250, 100, 0, 0, 0, 100, 0, 0, 0, 0, 95,
                driverCpuPercent, 40, 120, 10, 50, 3, 40, GateTruth.ABSENT);
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
