package io.tlsadmit.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
