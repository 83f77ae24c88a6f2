package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.admission.StaticBudget;
import org.junit.jupiter.api.Test;

class GateSettingsTest {

    private final GateSettings settings = new GateSettings();

    private void assertRejected(String attribute) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            settings.newBudget();
            settings.refuseActionValue();
        });
        assertTrue(e.getMessage().startsWith(attribute + " "), e.getMessage());
    }

    @Test
    void staticDefaultsAreHundredPerSecondWithBurstTwenty() {
        settings.setBudget("static");
        HandshakeBudget budget = settings.newBudget();
        assertEquals(100, budget.fullHandshakesPerSecond());
        assertEquals(20, ((StaticBudget) budget).burst());
        assertEquals(RefuseAction.CLOSE, settings.refuseActionValue());
    }

    @Test
    void fractionalAndZeroRatesAreValid() {
        settings.setBudget("static");
        settings.setMaxFullHandshakesPerSecond("0.5");
        assertEquals(0.5, settings.newBudget().fullHandshakesPerSecond());
        settings.setMaxFullHandshakesPerSecond(" 0 ");
        assertEquals(0, settings.newBudget().fullHandshakesPerSecond());
    }

    @Test
    void badValuesAreRejectedNamingTheAttribute() {
        settings.setMaxFullHandshakesPerSecond("fast");
        assertRejected("maxFullHandshakesPerSecond");
        settings.setMaxFullHandshakesPerSecond("-1");
        assertRejected("maxFullHandshakesPerSecond");
        settings.setMaxFullHandshakesPerSecond("NaN");
        assertRejected("maxFullHandshakesPerSecond");
        settings.setMaxFullHandshakesPerSecond("10");
        settings.setFullHandshakeBurst("2.5");
        assertRejected("fullHandshakeBurst");
        settings.setFullHandshakeBurst("-3");
        assertRejected("fullHandshakeBurst");
        settings.setFullHandshakeBurst("3");
        settings.setBudget("dynamic");
        assertRejected("budget");
        settings.setBudget("Static");
        settings.setRefuseAction("drop");
        assertRejected("refuseAction");
    }

    @Test
    void resetIsAnAcceptedRefuseAction() {
        settings.setRefuseAction("reset");
        assertEquals(RefuseAction.RESET, settings.refuseActionValue());
    }
}
