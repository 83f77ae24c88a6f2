package io.tlsadmit.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentOptionsTest {

    @Test
    void withoutArgumentsEveryModeIsSweptToEightTimesTheKnee() {
        ExperimentOptions o = ExperimentOptions.parse(new String[0]);
        assertEquals(List.of(Mode.STOCK, Mode.STATIC, Mode.ADAPTIVE, Mode.HAPROXY), o.modes());
        assertEquals(List.of(0.5, 1.0, 2.0, 4.0, 8.0), o.multipliers());
        assertTrue(o.rates().isEmpty(), "the rates come from the knee search");
        assertEquals("mariadb", o.database());
        assertEquals("rsa2048", o.key());
        assertEquals("1.3", o.tls());
        assertTrue(o.cpuChange());
        assertTrue(o.out().startsWith(Path.of("docs", "results")));
    }

    @Test
    void quickComparesStockWithTheAdaptiveGateInShortStepsAtFixedRates() {
        ExperimentOptions o = ExperimentOptions.parse(new String[] {"--quick"});
        assertEquals(List.of(Mode.STOCK, Mode.ADAPTIVE), o.modes());
        assertFalse(o.rates().isEmpty());
        assertTrue(o.stepSeconds() * o.rates().size() <= 90, "about a minute a mode");
        assertEquals("rsa4096", o.key(), "a knee one Gatling core can go far beyond");
        assertFalse(o.cpuChange());
        assertTrue(o.out().getFileName().toString().endsWith("-quick"));
    }

    @Test
    void optionsOverrideWhatQuickImplies() {
        ExperimentOptions o = ExperimentOptions.parse(
                new String[] {"--quick", "--rates", "5,50", "--step-seconds", "30", "--cpu-change", "--out", "x"});
        assertEquals(List.of(5.0, 50.0), o.rates());
        assertEquals(30, o.stepSeconds());
        assertTrue(o.cpuChange());
        assertEquals(Path.of("x"), o.out());
    }

    @Test
    void modesRunStockFirstWhateverTheOrderGiven() {
        ExperimentOptions o = ExperimentOptions.parse(new String[] {"--modes", "haproxy,adaptive,stock,adaptive"});
        assertEquals(List.of(Mode.STOCK, Mode.ADAPTIVE, Mode.HAPROXY), o.modes());
    }

    @Test
    void staticWithoutStockNeedsTheKneeGiven() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ExperimentOptions.parse(new String[] {"--modes", "static"}));
        assertTrue(e.getMessage().contains("--knee"), e.getMessage());
        assertEquals(40.0, ExperimentOptions.parse(new String[] {"--modes", "static", "--knee", "40"}).knee());
    }

    @Test
    void badInputIsNamedInTheError() {
        assertEquals("unknown option '--bogus'", error("--bogus"));
        assertEquals("--step-seconds needs a value", error("--step-seconds"));
        assertEquals("--multipliers must be a positive number, got '-1'", error("--multipliers", "1,-1"));
        assertEquals("--step-seconds must be a whole number >= 2, got 'ten'", error("--step-seconds", "ten"));
        assertEquals("--key must be one of rsa2048, rsa4096, ec, got 'dsa'", error("--key", "dsa"));
        assertEquals("unknown mode 'nginx' (stock, static, adaptive, haproxy)", error("--modes", "stock,nginx"));
        assertEquals("unexpected argument 'fast'", error("fast"));
        assertTrue(error("--step-seconds", "10", "--warmup-seconds", "10").contains("shorter"));
    }

    @Test
    void helpIsNotAnError() {
        assertThrows(ExperimentOptions.HelpRequested.class, () -> ExperimentOptions.parse(new String[] {"--help"}));
    }

    private static String error(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> ExperimentOptions.parse(args)).getMessage();
    }
}
