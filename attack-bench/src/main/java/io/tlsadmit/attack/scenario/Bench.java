package io.tlsadmit.attack.scenario;

import io.tlsadmit.attack.server.ConnectorAttributes;
import io.tlsadmit.attack.server.GatedServer;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;

/** What every scenario needs: the Tomcat distribution, the RSA-2048 keystore, the gate jar, the options. */
public record Bench(TomcatDistribution distribution, TestKeystore keystore, Path gateJar, Path root, Path out,
                    String budget, double seconds, double slowSeconds, double forgedRate, boolean ticketFromManySources,
                    double slowRate) {

    GatedServer start(String name, ConnectorAttributes settings) {
        log("%s: starting Tomcat (%s)", name, settings.describe());
        return GatedServer.start(name, distribution, keystore, gateJar, settings);
    }

    public static void log(String format, Object... args) {
        System.out.println(LocalTime.now().truncatedTo(ChronoUnit.SECONDS) + " " + String.format(format, args));
    }
}
