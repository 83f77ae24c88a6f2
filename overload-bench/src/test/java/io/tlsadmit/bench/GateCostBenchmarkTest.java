package io.tlsadmit.bench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GateCostBenchmarkTest {

    @Test
    void medianOfAnOddCountIsTheMiddleValueWhateverTheOrder() {
        assertEquals(0.31, GateCostBenchmark.median(List.of(0.9, 0.31, 0.30)));
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertEquals(0.35, GateCostBenchmark.median(List.of(0.4, 0.3, 0.9, 0.2)), 1e-12);
    }

    @Test
    void theBootstrapIntervalHoldsTheMedianAndNarrowsWithMoreRounds() {
        List<Double> few = List.of(0.9, 1.0, 1.1, 0.95, 1.05);
        List<Double> many = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            many.addAll(few);
        }
        double[] wide = GateCostBenchmark.bootstrapInterval(few);
        double[] narrow = GateCostBenchmark.bootstrapInterval(many);
        assertTrue(wide[0] <= 1.0 && 1.0 <= wide[1], wide[0] + "–" + wide[1]);
        assertTrue(narrow[0] > wide[0] && narrow[1] < wide[1], narrow[0] + "–" + narrow[1]);
        double[] again = GateCostBenchmark.bootstrapInterval(few);
        assertEquals(wide[0], again[0]);
        assertEquals(wide[1], again[1]);
    }

    @Test
    void aBadOptionIsNamedInTheError() {
        IllegalArgumentException rounds = assertThrows(IllegalArgumentException.class,
                () -> new GateCostBenchmark(Map.of("rounds", "0")));
        assertTrue(rounds.getMessage().contains("--rounds"), rounds.getMessage());
        IllegalArgumentException tls = assertThrows(IllegalArgumentException.class,
                () -> new GateCostBenchmark(Map.of("tls", "1.1")));
        assertTrue(tls.getMessage().contains("--tls"), tls.getMessage());
        IllegalArgumentException schedule = assertThrows(IllegalArgumentException.class,
                () -> new GateCostBenchmark(Map.of("schedule", "together")));
        assertTrue(schedule.getMessage().contains("--schedule"), schedule.getMessage());
        assertDoesNotThrow(() -> new GateCostBenchmark(Map.of("schedule", "concurrent")));
    }

    @Test
    void theIdleMeasurementIsOnByDefaultAndZeroTurnsItOff() {
        assertDoesNotThrow(() -> new GateCostBenchmark(Map.of("idle-seconds", "0")));
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> new GateCostBenchmark(Map.of("idle-seconds", "-5")));
        assertTrue(negative.getMessage().contains("--idle-seconds"), negative.getMessage());
    }

    @Test
    void theCompareVariantNeedsAJarToCompareWith() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GateCostBenchmark(Map.of("variants", "stock,compare")));
        assertTrue(e.getMessage().contains("compare"), e.getMessage());
        assertDoesNotThrow(() -> new GateCostBenchmark(Map.of("variants", "stock,compare", "compare-jar", "x.jar")));
    }
}
