package io.tlsadmit.attack.scenario;

import io.tlsadmit.attack.report.ScenarioReport;
import io.tlsadmit.attack.server.ScenarioAttributes;
import io.tlsadmit.attack.server.GatedServer;
import io.tlsadmit.attack.server.TlsEngine;
import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;

/**
 * What every scenario needs: the Tomcat distribution, the RSA-2048 keystore, the gate jar, the options, and the TLS
 * engine and JDK the gated Tomcat runs with in this pass.
 */
public record Bench(TomcatDistribution distribution, TestKeystore keystore, Path gateJar, Path root, Path out,
                    String budget, double seconds, double slowSeconds, double forgedRate, boolean ticketFromManySources,
                    double slowRate, double floodRate, int floodRounds, TlsEngine engine, Jdk jdk) {

    /** The same bench with another engine. */
    public Bench with(TlsEngine other) {
        return new Bench(distribution, keystore, gateJar, root, out, budget, seconds, slowSeconds, forgedRate,
                ticketFromManySources, slowRate, floodRate, floodRounds, other, jdk);
    }

    GatedServer start(String name, ScenarioAttributes settings) {
        log("%s: starting Tomcat on JDK %d, %s (%s)", name, jdk.feature(), engine.label(), settings.describe());
        return GatedServer.start(name, distribution, keystore, gateJar, settings, engine, jdk);
    }

    /** A scenario's report, named with the engine so that the passes of one run stand side by side. */
    ScenarioReport report(String scenario, String settings) {
        return new ScenarioReport(scenario + " (" + engine.label() + ")", settings
                + (engine.implementation() == null ? "" : " sslImplementationName=" + engine.implementation()));
    }

    public static void log(String format, Object... args) {
        System.out.println(LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + " " + String.format(format, args));
    }
}
