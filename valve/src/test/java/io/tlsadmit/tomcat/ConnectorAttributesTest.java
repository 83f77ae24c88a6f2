package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CpuCapacity;
import io.tlsadmit.gate.BudgetType;
import io.tlsadmit.gate.GateConfig;
import io.tlsadmit.gate.GateMode;
import io.tlsadmit.gate.RefuseAction;
import io.tlsadmit.gate.RenegotiationPolicy;
import io.tlsadmit.gate.SlowHelloLimits;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** server.xml's strings into the gate's typed settings, and the messages a bad one stops Tomcat with. */
class ConnectorAttributesTest {

    private final ConnectorAttributes attributes = new ConnectorAttributes();

    @Test
    void unsetAttributesAreTheGatesDefaults() {
        GateConfig config = attributes.gateConfig();
        assertEquals(BudgetType.ADAPTIVE, config.budget());
        assertEquals(RefuseAction.CLOSE, config.refuseAction());
        assertEquals(RenegotiationPolicy.REFUSE, config.clientRenegotiation());
        assertEquals(GateMode.ENFORCE, config.mode());
        assertEquals(6, config.connectionsPerNewUser());
        assertTrue(config.nativePeek());
        assertTrue(config.bypassAddresses().isEmpty());
        assertTrue(config.helloTimeout().isEmpty());
        assertTrue(attributes.shortestWorkFirst());
        assertEquals(64, attributes.warmUpHandshakes());
        assertEquals(List.of(), attributes.warmUpRequests(), "no application warm-up unless pages are named");
        assertEquals(Duration.ofSeconds(30), attributes.warmUpDuration());
    }

    @Test
    void everyAttributeReachesItsSettingWrittenInAnyCase() {
        attributes.setBudget(" Static ");
        attributes.setMaxFullHandshakesPerSecond(" 0.5 ");
        attributes.setFullHandshakeBurst("3");
        attributes.setRefuseAction("RESET");
        attributes.setClientRenegotiation(" Charge ");
        attributes.setMode("Observe");
        attributes.setNativePeek("FALSE");
        attributes.setConnectionsPerNewUser("1");
        attributes.setBypassAddresses("10.0.0.0/8, 2001:db8::/32,192.0.2.7");
        attributes.setHelloTimeout("3000");
        attributes.setMaxPendingHellos("100");
        attributes.setMaxPendingHellosPerSource("500");
        attributes.setShortestWorkFirst("false");
        attributes.setWarmUpHandshakes("0");
        attributes.setWarmUpRequests(" /rubis/ , /rubis/servlet/ViewItem?itemId=3&x=%20,, ");
        attributes.setWarmUpSeconds(" 40 ");
        GateConfig config = attributes.gateConfig();
        HandshakeBudget budget = assertInstanceOf(StaticBudget.class, config.newBudget());
        assertEquals(0.5, budget.fullHandshakesPerSecond());
        assertEquals(3, budget.getFullHandshakeBurst());
        assertEquals(RefuseAction.RESET, config.refuseAction());
        assertEquals(RenegotiationPolicy.CHARGE, config.clientRenegotiation());
        assertEquals(GateMode.OBSERVE, config.mode());
        assertFalse(config.nativePeek());
        assertEquals(1, config.connectionsPerNewUser());
        assertTrue(config.bypassAddresses().contains(new InetSocketAddress("10.1.2.3", 1)));
        assertEquals(new SlowHelloLimits(3_000, 100, 100), config.slowHelloLimits(8192, Duration.ofMinutes(1)));
        assertFalse(attributes.shortestWorkFirst());
        assertEquals(0, attributes.warmUpHandshakes());
        assertEquals(List.of("/rubis/", "/rubis/servlet/ViewItem?itemId=3&x=%20"), attributes.warmUpRequests());
        assertEquals(Duration.ofSeconds(40), attributes.warmUpDuration());
    }

    @Test
    void anApplicationWarmUpThatCannotBeSentFailsNamingTheAttribute() {
        for (String bad : new String[] {"rubis/", "/a b", "/ok,http://elsewhere/", "/caf\u00e9", "/x\r\nHost: y"}) {
            attributes.setWarmUpRequests(bad);
            assertEquals("warmUpRequests must be a comma-separated list of paths, each starting with / in visible"
                    + " ASCII (percent-encode the rest), was \"" + bad + "\"",
                    assertThrows(IllegalArgumentException.class, attributes::warmUpRequests).getMessage());
        }
        for (String bad : new String[] {"0", "601", "1.5", "", "soon"}) {
            attributes.setWarmUpSeconds(bad);
            assertEquals("warmUpSeconds must be a whole number of seconds in [1, 600], was \"" + bad + "\"",
                    assertThrows(IllegalArgumentException.class, attributes::warmUpDuration).getMessage());
        }
    }

    @Test
    void everyAdaptiveAttributeReachesTheController() {
        attributes.setMaxFullHandshakesPerSecond("50");
        attributes.setFullHandshakeBurst("7");
        attributes.setCpus("1500m");
        attributes.setCpuCapacity(" Measured ");
        attributes.setTargetUtilization("0.5");
        attributes.setControlPeriod("200");
        attributes.setMinFullHandshakesPerSecond(" 2 ");
        attributes.setQueueDelayTarget("20");
        attributes.setInitialFullHandshakeCost("3000");
        AdmissionController controller = (AdmissionController) attributes.gateConfig().newBudget();
        assertEquals(50, controller.getMaxFullHandshakesPerSecond());
        assertEquals(7, controller.getFullHandshakeBurst());
        assertEquals(1.5, controller.getCpus());
        assertEquals(CpuCapacity.MEASURED, controller.getCpuCapacity());
        assertEquals(0.5, controller.getTargetUtilization());
        assertEquals(200, controller.getControlPeriod());
        assertEquals(2, controller.getMinFullHandshakesPerSecond());
        assertEquals(20, controller.getQueueDelayTarget());
        assertEquals(3000, controller.getInitialFullHandshakeCost());
    }

    @Test
    void cpusTakesDecimalCpusOrKubernetesMillicores() {
        // "1500m" is what server.xml's "${MILLICORES}m" becomes from the Downward API (divisor 1m: "1500")
        for (String[] written : new String[][] {{"1500m", "1.5"}, {"500m", "0.5"}, {"250m", "0.25"}, {" 2 ", "2"},
                {"1.5", "1.5"}, {".5", "0.5"}, {"2.", "2"}, {"0", "0"}, {"0m", "0"}, {"1m", "0.001"}, {"2.5m", "0.0025"},
                {"1.0E-4", "0.0001"}, {"1e3", "1000"}}) {
            assertEquals(Double.parseDouble(written[1]), ConnectorAttributes.cpus(written[0]), written[0]);
        }
    }

    @Test
    void anUnresolvedPlaceholderInCpusIsNamedAsOne() {
        attributes.setCpus("${TLSADMIT_CPU_REQUEST_MILLICORES}m");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, attributes::gateConfig);
        assertEquals("cpus must be a number of CPUs (0 = detect), decimal (1.5) or in millicores (1500m), was"
                + " \"${TLSADMIT_CPU_REQUEST_MILLICORES}m\" (an unresolved ${...}: is the variable set?)", e.getMessage());
    }

    @Test
    void theAdaptiveAttributesAreNotReadForAStaticBudget() {
        attributes.setBudget("static");
        attributes.setCpus("two");
        assertEquals(BudgetType.STATIC, attributes.gateConfig().budget());
    }

    @Test
    void badValuesAreRejectedWithTheMessagesOfTheAttributesTable() {
        assertMessage(ConnectorAttributes::setBudget, "dynamic", "budget must be \"adaptive\" or \"static\", was \"dynamic\"");
        assertMessage(ConnectorAttributes::setMaxFullHandshakesPerSecond, "fast", "maxFullHandshakesPerSecond must be a"
                + " decimal number of new full handshakes per second (0 refuses every new handshake), was \"fast\"");
        assertMessage(ConnectorAttributes::setMaxFullHandshakesPerSecond, "-1",
                "maxFullHandshakesPerSecond must be >= 0, was \"-1\"");
        assertMessage(ConnectorAttributes::setMaxFullHandshakesPerSecond, "NaN",
                "maxFullHandshakesPerSecond must be >= 0, was \"NaN\"");
        assertMessage(ConnectorAttributes::setFullHandshakeBurst, "2.5",
                "fullHandshakeBurst must be a whole number of handshakes >= 0, was \"2.5\"");
        assertMessage(ConnectorAttributes::setFullHandshakeBurst, "-3",
                "fullHandshakeBurst must be a whole number of handshakes >= 0, was \"-3\"");
        assertMessage(ConnectorAttributes::setRefuseAction, "drop", "refuseAction must be \"close\" or \"reset\", was \"drop\"");
        assertMessage(ConnectorAttributes::setClientRenegotiation, "allow",
                "clientRenegotiation must be \"refuse\" or \"charge\", was \"allow\"");
        assertMessage(ConnectorAttributes::setMode, "dry-run", "mode must be \"enforce\" or \"observe\", was \"dry-run\"");
        assertMessage(ConnectorAttributes::setNativePeek, "yes", "nativePeek must be \"true\" or \"false\", was \"yes\"");
        assertMessage(ConnectorAttributes::setConnectionsPerNewUser, "0", "connectionsPerNewUser must be a whole number"
                + " of connections in [1, 64] (1 = no grace), was \"0\"");
        assertMessage(ConnectorAttributes::setHelloTimeout, "0", "helloTimeout must be a whole number of ms >= 1, was \"0\"");
        assertMessage(ConnectorAttributes::setMaxPendingHellos, "many",
                "maxPendingHellos must be a whole number of connections >= 1, was \"many\"");
        assertMessage(ConnectorAttributes::setMaxPendingHellosPerSource, "-3",
                "maxPendingHellosPerSource must be a whole number of connections >= 1, was \"-3\"");
        assertMessage(ConnectorAttributes::setBypassAddresses, "10.0.0.0/8, monitoring.example",
                "bypassAddresses must be a comma-separated list of IPv4 and IPv6 addresses and CIDR ranges: ");
        assertMessage(ConnectorAttributes::setCpuCapacity, "shared",
                "cpuCapacity must be \"allocation\" or \"measured\", was \"shared\"");
        assertMessage(ConnectorAttributes::setTargetUtilization, "high",
                "targetUtilization must be a fraction in (0, 1], was \"high\"");
        assertMessage(ConnectorAttributes::setControlPeriod, "0.25",
                "controlPeriod must be a whole number of milliseconds, was \"0.25\"");
        assertMessage(ConnectorAttributes::setMinFullHandshakesPerSecond, "x",
                "minFullHandshakesPerSecond must be a number of new full handshakes per second, was \"x\"");
        assertMessage(ConnectorAttributes::setQueueDelayTarget, "50ms",
                "queueDelayTarget must be a whole number of milliseconds, was \"50ms\"");
        assertMessage(ConnectorAttributes::setInitialFullHandshakeCost, "2 ms",
                "initialFullHandshakeCost must be a whole number of microseconds, was \"2 ms\"");
        assertMessage(ConnectorAttributes::setRunQueueTarget, "three",
                "runQueueTarget must be a number of threads waiting for a CPU per CPU (0 = off), was \"three\"");
    }

    @Test
    void valuesOutsideTheControllersRangesNameTheAttributeWhenTheBudgetIsCreated() {
        for (String[] bad : new String[][] {{"cpus", "2000000"}, {"targetUtilization", "1.5"}, {"controlPeriod", "5"},
                {"minFullHandshakesPerSecond", "-2"}, {"queueDelayTarget", "0"}, {"initialFullHandshakeCost", "0"},
                {"runQueueTarget", "-1"}}) {
            ConnectorAttributes fresh = new ConnectorAttributes();
            switch (bad[0]) {
                case "cpus" -> fresh.setCpus(bad[1]);
                case "targetUtilization" -> fresh.setTargetUtilization(bad[1]);
                case "controlPeriod" -> fresh.setControlPeriod(bad[1]);
                case "minFullHandshakesPerSecond" -> fresh.setMinFullHandshakesPerSecond(bad[1]);
                case "queueDelayTarget" -> fresh.setQueueDelayTarget(bad[1]);
                case "runQueueTarget" -> fresh.setRunQueueTarget(bad[1]);
                default -> fresh.setInitialFullHandshakeCost(bad[1]);
            }
            GateConfig config = fresh.gateConfig();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, config::newBudget, bad[1]);
            assertTrue(e.getMessage().startsWith(bad[0] + " "), e.getMessage());
        }
    }

    @Test
    void theAdaptersOwnAttributesNameThemselves() {
        attributes.setShortestWorkFirst("sometimes");
        assertEquals("shortestWorkFirst must be \"true\" or \"false\", was \"sometimes\"",
                assertThrows(IllegalArgumentException.class, attributes::shortestWorkFirst).getMessage());
        attributes.setWarmUpHandshakes("10001");
        assertEquals("warmUpHandshakes must be a whole number of handshakes in [0, 10000] (0 = no warm-up), was"
                + " \"10001\"", assertThrows(IllegalArgumentException.class, attributes::warmUpHandshakes).getMessage());
    }

    private static void assertMessage(BiConsumer<ConnectorAttributes, String> setter, String value, String message) {
        ConnectorAttributes fresh = new ConnectorAttributes();
        setter.accept(fresh, value);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, fresh::gateConfig, value);
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
    }
}
