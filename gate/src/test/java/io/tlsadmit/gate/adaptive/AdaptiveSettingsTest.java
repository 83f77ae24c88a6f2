package io.tlsadmit.gate.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.gate.GateSettings;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

class AdaptiveSettingsTest {

    private final GateSettings settings = new GateSettings();

    private AdmissionController controller() {
        return (AdmissionController) settings.newBudget();
    }

    @Test
    void adaptiveIsTheDefaultBudgetWithTheControllersDefaults() {
        HandshakeBudget budget = settings.newBudget();
        AdmissionController controller = assertInstanceOf(AdmissionController.class, budget);
        assertEquals(AdmissionController.DEFAULT_MAX_RATE, controller.getMaxFullHandshakesPerSecond());
        assertEquals(0, controller.getFullHandshakeBurst(), "burst 0 = automatic");
        assertEquals(AdmissionController.DEFAULT_TARGET_UTILIZATION, controller.getTargetUtilization());
        assertEquals(AdmissionController.DEFAULT_CONTROL_PERIOD_MILLIS, controller.getControlPeriod());
        assertTrue(controller.cpusAllocated() > 0);
    }

    @Test
    void everyAttributeReachesTheController() {
        settings.setMaxFullHandshakesPerSecond("50");
        settings.setFullHandshakeBurst("7");
        settings.adaptive().setCpus("1.5");
        settings.adaptive().setTargetUtilization("0.5");
        settings.adaptive().setControlPeriod("200");
        settings.adaptive().setMinFullHandshakesPerSecond(" 2 ");
        settings.adaptive().setQueueDelayTarget("20");
        settings.adaptive().setInitialFullHandshakeCost("3000");
        AdmissionController controller = controller();
        assertEquals(50, controller.getMaxFullHandshakesPerSecond());
        assertEquals(7, controller.getFullHandshakeBurst());
        assertEquals(1.5, controller.getCpus());
        assertEquals(0.5, controller.getTargetUtilization());
        assertEquals(200, controller.getControlPeriod());
        assertEquals(2, controller.getMinFullHandshakesPerSecond());
        assertEquals(20, controller.getQueueDelayTarget());
        assertEquals(3000, controller.getInitialFullHandshakeCost());
        assertEquals(1.5, controller.cpusAllocated(), "cpus overrides detection from the start, before any tick");
        assertEquals(1.5, controller.allocation().refresh().cpus(), "cpus overrides detection");
    }

    @Test
    void cpusTakesDecimalCpusOrKubernetesMillicores() {
        // "1500m" is what server.xml's "${MILLICORES}m" becomes from the Downward API (divisor 1m: "1500")
        for (String[] written : new String[][] {{"1500m", "1.5"}, {"500m", "0.5"}, {"250m", "0.25"}, {" 2 ", "2"},
                {"1.5", "1.5"}, {".5", "0.5"}, {"2.", "2"}, {"0", "0"}, {"0m", "0"}, {"1m", "0.001"}, {"2.5m", "0.0025"},
                {"1.0E-4", "0.0001"}, {"1e3", "1000"}}) {
            GateSettings fresh = new GateSettings();
            fresh.adaptive().setCpus(written[0]);
            assertEquals(Double.parseDouble(written[1]), ((AdmissionController) fresh.newBudget()).getCpus(),
                    written[0]);
        }
    }

    @Test
    void anUnresolvedPlaceholderInCpusIsNamedAsOne() {
        settings.adaptive().setCpus("${TLSADMIT_CPU_REQUEST_MILLICORES}m");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, settings::newBudget);
        assertTrue(e.getMessage().startsWith("cpus must be a number of CPUs"), e.getMessage());
        assertTrue(e.getMessage().contains("\"${TLSADMIT_CPU_REQUEST_MILLICORES}m\""), e.getMessage());
        assertTrue(e.getMessage().contains("unresolved ${...}"), e.getMessage());
    }

    @Test
    void capZeroRefusesEveryNewHandshakeWhateverTheMinimum() {
        settings.setMaxFullHandshakesPerSecond("0");
        settings.adaptive().setMinFullHandshakesPerSecond("5");
        AdmissionController controller = controller();
        assertEquals(0, controller.fullHandshakesPerSecond());
        assertFalse(controller.tryAcquireFull());
    }

    @Test
    void badValuesAreRejectedNamingTheAttribute() {
        assertRejected("cpus", AdaptiveSettings::setCpus, "two", "-1", "-500m", "500 m", "500M", "1Ki", "1e3m", "m",
                "1.5.0", "2000000", "0x10", "2d", "1E", "");
        assertRejected("targetUtilization", AdaptiveSettings::setTargetUtilization, "high", "0", "1.5");
        assertRejected("controlPeriod", AdaptiveSettings::setControlPeriod, "0.25", "5", "999999");
        assertRejected("minFullHandshakesPerSecond", AdaptiveSettings::setMinFullHandshakesPerSecond, "-2", "x");
        assertRejected("queueDelayTarget", AdaptiveSettings::setQueueDelayTarget, "50ms", "0");
        assertRejected("initialFullHandshakeCost", AdaptiveSettings::setInitialFullHandshakeCost, "2 ms", "0");
    }

    private void assertRejected(String attribute, BiConsumer<AdaptiveSettings, String> setter, String... values) {
        for (String value : values) {
            GateSettings fresh = new GateSettings();
            setter.accept(fresh.adaptive(), value);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, fresh::newBudget, value);
            assertTrue(e.getMessage().startsWith(attribute + " "), e.getMessage());
        }
    }
}
