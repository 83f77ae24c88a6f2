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
    void aBadOptionIsNamedInTheError() {
        IllegalArgumentException rounds = assertThrows(IllegalArgumentException.class,
                () -> new GateCostBenchmark(Map.of("rounds", "0")));
        assertTrue(rounds.getMessage().contains("--rounds"), rounds.getMessage());
        IllegalArgumentException tls = assertThrows(IllegalArgumentException.class,
                () -> new GateCostBenchmark(Map.of("tls", "1.1")));
        assertTrue(tls.getMessage().contains("--tls"), tls.getMessage());
    }

    @Test
    void theCompareVariantNeedsAJarToCompareWith() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GateCostBenchmark(Map.of("variants", "stock,compare")));
        assertTrue(e.getMessage().contains("compare"), e.getMessage());
        assertDoesNotThrow(() -> new GateCostBenchmark(Map.of("variants", "stock,compare", "compare-jar", "x.jar")));
    }
}
