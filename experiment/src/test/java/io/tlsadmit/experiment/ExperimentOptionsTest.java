package io.tlsadmit.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.experiment.flash.ServerStart;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExperimentOptionsTest {

    @Test
    void withoutArgumentsEveryModeIsSweptToEightTimesTheKnee() {
        ExperimentOptions o = ExperimentOptions.parse(new String[0]);
        assertEquals(List.of(Mode.STOCK, Mode.STATIC, Mode.ADAPTIVE, Mode.HAPROXY, Mode.HAPROXY_REJECT,
                Mode.HAPROXY_HELLO), o.modes());
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
    void everyHaproxyModeIsInTheFullRunUnderItsLabelWithItsOwnRate() {
        assertTrue(ExperimentOptions.parse(new String[0]).modes().containsAll(List.of(Mode.HAPROXY,
                Mode.HAPROXY_REJECT, Mode.HAPROXY_HELLO)));
        ExperimentOptions o = ExperimentOptions.parse(new String[] {"--modes", "haproxy-hello,stock,haproxy-reject",
            "--reject-rate", "70", "--new-hello-rate", "90"});
        assertEquals(List.of(Mode.STOCK, Mode.HAPROXY_REJECT, Mode.HAPROXY_HELLO), o.modes());
        assertEquals("haproxy-reject", Mode.HAPROXY_REJECT.label());
        assertEquals(70, o.haproxyRate(Mode.HAPROXY_REJECT));
        assertEquals(90, o.haproxyRate(Mode.HAPROXY_HELLO));
        assertEquals(0, o.haproxyRate(Mode.HAPROXY), "swept");
        assertEquals(0, o.haproxyRate(Mode.STATIC));
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
        assertEquals("unknown mode 'nginx' (stock, static, adaptive, adaptive-nice, adaptive-measured, adaptive-allocation, adaptive-reset, adaptive-runqueue, haproxy, haproxy-reject, haproxy-hello)",
                error("--modes", "stock,nginx"));
        assertEquals("--reject-rate must be a whole number >= 1, got '0'", error("--reject-rate", "0"));
        assertEquals("unexpected argument 'fast'", error("fast"));
        assertTrue(error("--step-seconds", "10", "--warmup-seconds", "10").contains("shorter"));
    }

    @Test
    void helpIsNotAnError() {
        assertThrows(ExperimentOptions.HelpRequested.class, () -> ExperimentOptions.parse(new String[] {"--help"}));
    }

    @Test
    void gateAttributesAreRepeatableNameValuePairsTheLastOfANameWinning() {
        assertTrue(ExperimentOptions.parse(new String[0]).gateAttributes().isEmpty());
        ExperimentOptions o = ExperimentOptions.parse(new String[] {"--modes", "adaptive-runqueue",
                "--gate-attribute", "runQueueTarget=5", "--gate-attribute", "warmUpRequests=/a,/b",
                "--gate-attribute", "runQueueTarget=8"});
        assertEquals(java.util.Map.of("runQueueTarget", "8", "warmUpRequests", "/a,/b"), o.gateAttributes());
        assertEquals("--gate-attribute must be NAME=VALUE with a connector attribute's name, got '=5'",
                error("--gate-attribute", "=5"));
        assertTrue(error("--gate-attribute", "runQueueTarget").startsWith("--gate-attribute must be NAME=VALUE"));
    }

    private static String error(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> ExperimentOptions.parse(args)).getMessage();
    }

    @Test
    void eachMixWithEachTlsVersionIsAWorkloadOfItsOwn() {
        ExperimentOptions o = ExperimentOptions.parse(new String[] {"--mix", "browsing,bidding", "--tls", "1.3,1.2"});
        assertEquals(List.of(new Workload("browsing", "1.3"), new Workload("browsing", "1.2"),
                new Workload("bidding", "1.3"), new Workload("bidding", "1.2")), o.workloads());
        assertEquals("", o.workloads().get(0).chartSuffix(), "the study's workload keeps today's chart names");
        assertEquals("-bidding-tls1.2", o.workloads().get(3).chartSuffix());
        assertEquals(List.of(Workload.STUDY), ExperimentOptions.parse(new String[0]).workloads());
        assertEquals("--mix must be one of browsing, bidding, got 'selling'", error("--mix", "browsing,selling"));
    }

    @Test
    void theFlashCrowdIsPartOfTheFullRunNotOfTheDemo() {
        assertTrue(ExperimentOptions.parse(new String[0]).flashCrowd());
        assertEquals(30, ExperimentOptions.parse(new String[0]).flashCrowdSeconds());
        assertFalse(ExperimentOptions.parse(new String[] {"--quick"}).flashCrowd());
        assertTrue(ExperimentOptions.parse(new String[] {"--quick", "--flash-crowd"}).flashCrowd());
        assertFalse(ExperimentOptions.parse(new String[] {"--no-flash-crowd"}).flashCrowd());
        assertEquals(ServerStart.COLD, ExperimentOptions.parse(new String[0]).flashCrowdStart(),
                "the issue's crowd meets a cold server");
        assertEquals(ServerStart.WARM, ExperimentOptions.parse(new String[] {"--flash-crowd-start", "warm"})
                .flashCrowdStart());
        assertEquals(ServerStart.WARM_UP_REQUESTS, ExperimentOptions.parse(
                new String[] {"--flash-crowd-start", "warm-up-requests"}).flashCrowdStart());
        assertEquals("--flash-crowd-start must be one of cold, warm, warm-up-requests, got 'hot'",
                error("--flash-crowd-start", "hot"));
    }

    @Test
    void browserLikeUsersAndTheirSourceAddresses() {
        ExperimentOptions o = ExperimentOptions.parse(new String[0]);
        assertEquals(1, o.connectionsPerUser());
        assertEquals(ExperimentOptions.DEFAULT_SOURCE_ADDRESSES, o.sourceAddresses());
        o = ExperimentOptions.parse(new String[] {"--connections-per-user", "6", "--source-addresses", "0"});
        assertEquals(6, o.connectionsPerUser());
        assertEquals(0, o.sourceAddresses());
        assertEquals("--connections-per-user must be at most 64, got 65", error("--connections-per-user", "65"));
    }

    @Test
    void theKneeIsBisectedToTenPercentUnlessToldOtherwise() {
        assertEquals(io.tlsadmit.experiment.step.KneeSearch.Resolution.DEFAULT,
                ExperimentOptions.parse(new String[0]).kneeResolution());
        assertEquals(5, ExperimentOptions.parse(new String[] {"--knee-resolution", "5"}).kneeResolution().width(80));
        assertTrue(Double.isInfinite(ExperimentOptions.parse(new String[] {"--knee-resolution", "off"})
                .kneeResolution().width(80)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ExperimentOptions.parse(new String[] {"--knee-resolution", "0%"}));
        assertTrue(e.getMessage().contains("--knee-resolution"));
    }

    @Test
    void theCpuChangeIsBothTasksetAndQuotaUnlessToldOne() {
        assertEquals(List.of(CpuChangeKind.TASKSET, CpuChangeKind.QUOTA),
                ExperimentOptions.parse(new String[0]).cpuChangeKinds());
        assertEquals(List.of(CpuChangeKind.QUOTA),
                ExperimentOptions.parse(new String[] {"--cpu-change-kind", "quota"}).cpuChangeKinds());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ExperimentOptions.parse(new String[] {"--cpu-change-kind", "cgroup"}));
        assertTrue(e.getMessage().contains("--cpu-change-kind"));
        assertEquals("1 -> 0.5 -> 1 CPUs (quota)", CpuChangeKind.QUOTA.describe());
    }

    @Test
    void twoServerCpusAreAWorkloadOfTheirOwnWithTheirOwnCharts() {
        ExperimentOptions o = ExperimentOptions.parse(new String[] {"--server-cpus", "1,2"});
        assertEquals(List.of(Workload.STUDY, new Workload("browsing", "1.3", 2)), o.workloads());
        assertEquals("-2cpus", o.workloads().get(1).chartSuffix());
        assertEquals("0-1", o.workloads().get(1).cpuList());
        assertTrue(o.workloads().get(1).cpusLabel().contains("shared with Gatling"));
        assertThrows(IllegalArgumentException.class, () -> ExperimentOptions.parse(new String[] {"--server-cpus", "3"}));
    }
}
