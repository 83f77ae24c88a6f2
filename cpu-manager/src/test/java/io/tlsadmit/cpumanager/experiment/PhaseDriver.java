package io.tlsadmit.cpumanager.experiment;

import io.tlsadmit.experiment.step.GatlingStep;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One instance's Gatling run for one phase, in a JVM of its own: {@link GatlingStep} sets the simulation's
 * {@code rubis.*} properties JVM-wide, so the two instances' load cannot share a JVM.
 * Arguments: the results directory, the run's name, then {@code key=value} simulation properties.
 */
public final class PhaseDriver {

    private PhaseDriver() {
    }

    public static void main(String[] args) {
        Map<String, String> properties = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            properties.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        GatlingStep.run(Path.of(args[0]), args[1], properties);
        System.exit(0);
    }
}
