package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.HandshakeBudget;
import io.tlsadmit.admission.StaticBudget;
import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CpuCapacity;
import io.tlsadmit.gate.source.AddressRanges;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class GateConfigTest {

    @Test
    void theDefaultsAreAnAdaptiveBudgetEnforcedClosingRefusedConnections() {
        GateConfig config = GateConfig.defaults();
        assertEquals(BudgetType.ADAPTIVE, config.budget());
        assertEquals(RefuseAction.CLOSE, config.refuseAction());
        assertEquals(RenegotiationPolicy.REFUSE, config.clientRenegotiation());
        assertEquals(GateMode.ENFORCE, config.mode());
        assertEquals(6, config.connectionsPerNewUser());
        assertTrue(config.nativePeek());
        assertTrue(config.bypassAddresses().isEmpty());
        AdmissionController controller = assertInstanceOf(AdmissionController.class, config.newBudget());
        assertEquals(AdmissionController.DEFAULT_MAX_RATE, controller.getMaxFullHandshakesPerSecond());
        assertEquals(0, controller.getFullHandshakeBurst(), "burst 0 = automatic");
    }

    @Test
    void aStaticBudgetIsHundredPerSecondWithBurstTwentyUnlessSet() {
        HandshakeBudget budget = GateConfig.builder().budget(BudgetType.STATIC).build().newBudget();
        assertInstanceOf(StaticBudget.class, budget);
        assertEquals(100, budget.fullHandshakesPerSecond());
        assertEquals(20, budget.getFullHandshakeBurst());
        budget = GateConfig.builder().budget(BudgetType.STATIC).maxFullHandshakesPerSecond(0.5).fullHandshakeBurst(3)
                .build().newBudget();
        assertEquals(0.5, budget.fullHandshakesPerSecond());
        assertEquals(3, budget.getFullHandshakeBurst());
    }

    @Test
    void everyAdaptiveSettingReachesTheController() {
        AdmissionController controller = (AdmissionController) GateConfig.builder()
                .maxFullHandshakesPerSecond(50).fullHandshakeBurst(7).cpus(1.5).cpuCapacity(CpuCapacity.MEASURED)
                .targetUtilization(0.5)
                .controlPeriod(Duration.ofMillis(200)).minFullHandshakesPerSecond(2)
                .queueDelayTarget(Duration.ofMillis(20)).initialFullHandshakeCost(Duration.ofMillis(3))
                .build().newBudget();
        assertEquals(50, controller.getMaxFullHandshakesPerSecond());
        assertEquals(7, controller.getFullHandshakeBurst());
        assertEquals(1.5, controller.getCpus());
        assertEquals(CpuCapacity.MEASURED, controller.getCpuCapacity());
        assertEquals(0.5, controller.getTargetUtilization());
        assertEquals(200, controller.getControlPeriod());
        assertEquals(2, controller.getMinFullHandshakesPerSecond());
        assertEquals(20, controller.getQueueDelayTarget());
        assertEquals(3000, controller.getInitialFullHandshakeCost(), "µs");
        assertEquals(1.5, controller.cpusAllocated(), "cpus overrides detection from the start, before any tick");
    }

    @Test
    void capZeroRefusesEveryNewHandshakeWhateverTheMinimum() {
        AdmissionController controller = (AdmissionController) GateConfig.builder().maxFullHandshakesPerSecond(0)
                .minFullHandshakesPerSecond(5).build().newBudget();
        assertEquals(0, controller.fullHandshakesPerSecond());
        assertFalse(controller.tryAcquireFull());
    }

    @Test
    void theGateGetsTheBudgetRefuseActionRenegotiationPolicyAndMode() {
        ConnectorGate gate = GateConfig.builder().budget(BudgetType.STATIC).maxFullHandshakesPerSecond(5)
                .refuseAction(RefuseAction.RESET).clientRenegotiation(RenegotiationPolicy.CHARGE)
                .mode(GateMode.OBSERVE).build().newGate("https");
        assertEquals("https", gate.name());
        assertEquals(5, gate.budget().fullHandshakesPerSecond());
        assertEquals(RefuseAction.RESET, gate.refuseAction());
        assertEquals(RenegotiationPolicy.CHARGE, gate.clientRenegotiation());
        assertTrue(gate.isObserving());
    }

    @Test
    void slowHelloLimitsDefaultToTenSecondsAndSharesOfTheServersConnections() {
        GateConfig config = GateConfig.defaults();
        Duration minute = Duration.ofMinutes(1);
        assertEquals(new SlowHelloLimits(10_000, 4096, 512), config.slowHelloLimits(8192, minute));
        assertEquals(2_000, config.slowHelloLimits(8192, Duration.ofSeconds(2)).helloTimeoutMillis(),
                "never beyond the server's connection timeout");
        assertEquals(10_000, config.slowHelloLimits(8192, Duration.ZERO).helloTimeoutMillis(), "no server timeout");
        assertEquals(10_000, config.slowHelloLimits(-1, minute).maxPending(), "connections unlimited");
        GateConfig set = GateConfig.builder().helloTimeout(Duration.ofSeconds(3)).maxPendingHellos(100)
                .maxPendingHellosPerSource(500).build();
        assertEquals(new SlowHelloLimits(3_000, 100, 100), set.slowHelloLimits(8192, minute),
                "a source can never have more than all");
    }

    @Test
    void outOfRangeValuesAreRejectedNamingTheSetting() {
        assertRejected("maxFullHandshakesPerSecond", b -> b.maxFullHandshakesPerSecond(-1));
        assertRejected("maxFullHandshakesPerSecond", b -> b.maxFullHandshakesPerSecond(Double.NaN));
        assertRejected("maxFullHandshakesPerSecond", b -> b.maxFullHandshakesPerSecond(Double.POSITIVE_INFINITY));
        assertRejected("fullHandshakeBurst", b -> b.fullHandshakeBurst(-3));
        assertRejected("connectionsPerNewUser", b -> b.connectionsPerNewUser(0));
        assertRejected("connectionsPerNewUser", b -> b.connectionsPerNewUser(65));
        assertRejected("helloTimeout", b -> b.helloTimeout(Duration.ofNanos(999_999)));
        assertRejected("helloTimeout", b -> b.helloTimeout(Duration.ofSeconds(-1)));
        assertRejected("maxPendingHellos", b -> b.maxPendingHellos(0));
        assertRejected("maxPendingHellosPerSource", b -> b.maxPendingHellosPerSource(-3));
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> GateConfig.builder().cpuCapacity(null));
        assertEquals("cpuCapacity", e.getMessage());
    }

    @Test
    void cpuCapacityIsMeasuredUnlessTheAllocationIsAskedFor() {
        AdmissionController controller = (AdmissionController) GateConfig.defaults().newBudget();
        assertEquals(CpuCapacity.MEASURED, controller.getCpuCapacity());
        AdmissionController asked = (AdmissionController) GateConfig.builder().cpuCapacity(CpuCapacity.ALLOCATION)
                .build().newBudget();
        assertEquals(CpuCapacity.ALLOCATION, asked.getCpuCapacity());
    }

    @Test
    void theBudgetsOwnRangesNameTheSettingWhenItIsCreated() {
        GateConfig config = GateConfig.builder().targetUtilization(1.5).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, config::newBudget);
        assertTrue(e.getMessage().startsWith("targetUtilization "), e.getMessage());
        config = GateConfig.builder().controlPeriod(Duration.ofMillis(5)).build();
        e = assertThrows(IllegalArgumentException.class, config::newBudget);
        assertTrue(e.getMessage().startsWith("controlPeriod "), e.getMessage());
        config = GateConfig.builder().budget(BudgetType.STATIC).maxFullHandshakesPerSecond(1e12).build();
        e = assertThrows(IllegalArgumentException.class, config::newBudget);
        assertTrue(e.getMessage().startsWith("maxFullHandshakesPerSecond "), e.getMessage());
    }

    @Test
    void toBuilderKeepsEverySetting() {
        GateConfig config = GateConfig.builder().budget(BudgetType.STATIC).maxFullHandshakesPerSecond(7)
                .fullHandshakeBurst(2).cpus(3).cpuCapacity(CpuCapacity.MEASURED).refuseAction(RefuseAction.RESET).nativePeek(false)
                .clientRenegotiation(RenegotiationPolicy.CHARGE).mode(GateMode.OBSERVE)
                .bypassAddresses(AddressRanges.parse("10.0.0.0/8")).connectionsPerNewUser(1)
                .helloTimeout(Duration.ofSeconds(1)).maxPendingHellos(9).maxPendingHellosPerSource(3).build();
        GateConfig copy = config.toBuilder().build();
        assertEquals(config.budget(), copy.budget());
        assertEquals(config.maxFullHandshakesPerSecond(), copy.maxFullHandshakesPerSecond());
        assertEquals(config.fullHandshakeBurst(), copy.fullHandshakeBurst());
        assertEquals(config.adaptive(), copy.adaptive());
        assertEquals(config.refuseAction(), copy.refuseAction());
        assertEquals(config.nativePeek(), copy.nativePeek());
        assertEquals(config.clientRenegotiation(), copy.clientRenegotiation());
        assertEquals(config.mode(), copy.mode());
        assertTrue(copy.bypassAddresses().contains(new InetSocketAddress("10.1.2.3", 1)));
        assertEquals(config.connectionsPerNewUser(), copy.connectionsPerNewUser());
        assertEquals(config.slowHelloLimits(100, Duration.ZERO), copy.slowHelloLimits(100, Duration.ZERO));
        assertEquals(BudgetType.ADAPTIVE, config.toBuilder().budget(BudgetType.ADAPTIVE).build().budget());
        assertEquals(BudgetType.STATIC, config.budget(), "immutable");
    }

    private static void assertRejected(String setting, UnaryOperator<GateConfig.Builder> change) {
        GateConfig.Builder builder = change.apply(GateConfig.builder());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
        assertTrue(e.getMessage().startsWith(setting + " must be "), e.getMessage());
    }
}
