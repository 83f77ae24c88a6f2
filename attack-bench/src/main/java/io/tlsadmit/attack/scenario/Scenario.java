package io.tlsadmit.attack.scenario;

import io.tlsadmit.attack.report.ScenarioReport;

/** One hostile-client pattern against its own fresh gated Tomcat: a quiet phase, then the attack. */
public interface Scenario {
    String name();

    ScenarioReport run(Bench bench) throws Exception;
}
