package io.tlsadmit.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.experiment.step.StepResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {

    @Test
    void theRecordedCommandRunsTheSameExperimentAgain() {
        ExperimentOptions o = ExperimentOptions.parse(new String[] {"--modes", "stock,adaptive", "--multipliers",
            "0.5,1,2.5", "--knee-resolution", "5", "--step-seconds", "30", "--warmup-seconds", "10", "--no-cpu-change"});
        List<String> command = Summary.commandLine(o);
        assertEquals(List.of("--modes", "stock,adaptive", "--multipliers", "0.5,1,2.5", "--start-rate", "4",
                "--knee-resolution", "5.0", "--step-seconds", "30", "--warmup-seconds", "10", "--db", "mariadb", "--scale", "0.01", "--key", "rsa2048", "--tls", "1.3",
                "--mix", "browsing", "--think-scale", "0.1", "--flash-crowd", "--no-cpu-change"), command);
        ExperimentOptions again = ExperimentOptions.parse(String.join(" ", command).split(" "));
        assertEquals(o.modes(), again.modes());
        assertEquals(o.multipliers(), again.multipliers());
        assertEquals(o.stepSeconds(), again.stepSeconds());
        assertEquals(o.workloads(), again.workloads());
        assertEquals(o.kneeResolution(), again.kneeResolution());
    }

    @Test
    void givenHaproxyRatesAreRecordedToo() {
        ExperimentOptions o = ExperimentOptions.parse(new String[] {"--modes", "stock,haproxy,haproxy-hello",
            "--new-hello-rate", "90", "--maxsslrate", "120", "--reject-rate", "70"});
        List<String> command = Summary.commandLine(o);
        assertEquals(List.of("--maxsslrate", "120", "--new-hello-rate", "90"),
                command.subList(command.indexOf("--maxsslrate"), command.indexOf("--maxsslrate") + 4),
                "only the modes that run, in their order");
        ExperimentOptions again = ExperimentOptions.parse(String.join(" ", command).split(" "));
        assertEquals(90, again.haproxyRate(Mode.HAPROXY_HELLO));
        assertEquals(120, again.haproxyRate(Mode.HAPROXY));
    }

    @Test
    void theSummarySaysHowTheKneeWasFound() {
        assertEquals("given with `--knee`", Summary.kneeSource(ExperimentOptions.parse(new String[] {"--knee", "38"})));
        assertEquals("the swept rate of its highest throughput among those with a page p99 within 10× the lowest"
                + " rate's", Summary.kneeSource(ExperimentOptions.parse(new String[] {"--quick"})));
        assertEquals("searched: doubling, then bisected to 10%, a rate holding while its page p99 stayed within 10× the"
                + " start rate's", Summary.kneeSource(ExperimentOptions.parse(new String[0])));
    }

    @Test
    void theQuickDemoIsRecordedAsSuch() {
        assertEquals(List.of("--quick"), Summary.commandLine(ExperimentOptions.parse(new String[] {"--quick"})));
    }

    /** A sweep step at 440 users/s with Gatling at {@code gatling} % of its core and its CPU {@code busy} % busy. */
    private static StepResult step(int serverCpus, double gatling, double busy) {
        return new StepResult(Mode.ADAPTIVE, "sweep", 440, Double.NaN, 40, 25, 800, 300, 38, 923, 6.7, 17600, 950, 0,
                15000, 0, 643, 6083, 1757, 1700, 93, gatling, 18, "browsing", "1.3", 1, 40, 0, 3, 1757, 0, serverCpus,
                7091, 5099, 0, 2.6, 0, 8.98, busy);
    }

    @Test
    void aStepIsTheLoadGeneratorsWhenGatlingOrItsCpuWithTheDatabaseWasFull() {
        assertTrue(Summary.limitedByLoadGenerator(step(1, 81, 96)), "Gatling at 81 %, its CPU full with the database");
        assertFalse(Summary.limitedByLoadGenerator(step(1, 71, 88)), "room left on the load generator's CPU");
        assertTrue(Summary.limitedByLoadGenerator(step(1, 91, 92)), "Gatling itself at its limit");
        assertFalse(Summary.limitedByLoadGenerator(step(2, 81, 99)),
                "with two server CPUs the load generator's CPU is busy with the server too");
        assertTrue(Summary.limitedByLoadGenerator(step(2, 92, 99)));
        assertFalse(Summary.limitedByLoadGenerator(step(1, 81, Double.NaN)), "not measured: only Gatling's share");
    }
}
