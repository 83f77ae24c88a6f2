package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.HandshakeBudget;
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
        assertEquals(20, budget.getFullHandshakeBurst());
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

    @Test
    void clientRenegotiationIsRefusedUnlessChargeIsAsked() {
        assertEquals(RenegotiationPolicy.REFUSE, settings.clientRenegotiationValue());
        settings.setClientRenegotiation(" Charge ");
        assertEquals(RenegotiationPolicy.CHARGE, settings.clientRenegotiationValue());
        settings.setClientRenegotiation("allow");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, settings::clientRenegotiationValue);
        assertTrue(e.getMessage().startsWith("clientRenegotiation "), e.getMessage());
    }

    @Test
    void slowHelloLimitsDefaultToTenSecondsAndSharesOfMaxConnections() {
        SlowHelloLimits limits = settings.slowHelloLimits(8192, 60_000);
        assertEquals(new SlowHelloLimits(10_000, 4096, 512), limits);
        assertEquals(2_000, settings.slowHelloLimits(8192, 2_000).helloTimeoutMillis(), "never beyond connectionTimeout");
        assertEquals(10_000, settings.slowHelloLimits(-1, 60_000).maxPending(), "maxConnections unlimited");
        settings.setHelloTimeout("3000");
        settings.setMaxPendingHellos("100");
        settings.setMaxPendingHellosPerSource("500");
        assertEquals(new SlowHelloLimits(3_000, 100, 100), settings.slowHelloLimits(8192, 60_000),
                "a source can never have more than all");
    }

    @Test
    void badSlowHelloLimitsNameTheirAttribute() {
        for (String[] bad : new String[][] {{"helloTimeout", "0"}, {"maxPendingHellos", "many"},
                {"maxPendingHellosPerSource", "-3"}}) {
            GateSettings fresh = new GateSettings();
            switch (bad[0]) {
                case "helloTimeout" -> fresh.setHelloTimeout(bad[1]);
                case "maxPendingHellos" -> fresh.setMaxPendingHellos(bad[1]);
                default -> fresh.setMaxPendingHellosPerSource(bad[1]);
            }
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> fresh.slowHelloLimits(8192, 60_000));
            assertTrue(e.getMessage().startsWith(bad[0] + " must be a whole number"), e.getMessage());
        }
    }

    @Test
    void connectionsPerNewUserIsABrowsersSixUnlessSet() {
        assertEquals(6, settings.connectionsPerNewUserValue());
        settings.setConnectionsPerNewUser("1");
        assertEquals(1, settings.connectionsPerNewUserValue());
        settings.setConnectionsPerNewUser("0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, settings::connectionsPerNewUserValue);
        assertTrue(e.getMessage().startsWith("connectionsPerNewUser "), e.getMessage());
    }

    @Test
    void modeAndBypassAddressesAreCheckedNamingTheAttribute() {
        assertEquals(GateMode.ENFORCE, settings.modeValue());
        settings.setMode("Observe");
        assertEquals(GateMode.OBSERVE, settings.modeValue());
        settings.setMode("dry-run");
        assertTrue(assertThrows(IllegalArgumentException.class, settings::modeValue).getMessage().startsWith("mode "));

        assertTrue(settings.bypassAddressesValue().isEmpty());
        settings.setBypassAddresses("10.0.0.0/8, 2001:db8::/32,192.0.2.7");
        assertTrue(settings.bypassAddressesValue().contains(new java.net.InetSocketAddress("10.1.2.3", 1)));
        settings.setBypassAddresses("10.0.0.0/8, monitoring.example");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, settings::bypassAddressesValue);
        assertTrue(e.getMessage().startsWith("bypassAddresses ") && e.getMessage().contains("monitoring.example"),
                e.getMessage());
    }
}
