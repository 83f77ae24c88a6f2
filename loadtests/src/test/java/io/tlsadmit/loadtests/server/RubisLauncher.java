package io.tlsadmit.loadtests.server;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Starts the real Tomcat distribution with rubis.war, stock or gated, for load runs by hand, and keeps it up
 * until interrupted: {@code mvn -pl loadtests test-compile exec:java@rubis-server -Dserver.mode=gated}. Prints
 * the {@code -Drubis.*} arguments that point {@code gatling:test} at it, and writes them to
 * {@code target/rubis-server.args}.
 *
 * <p>System properties: {@code server.mode} ({@code gated} | {@code stock}), {@code server.protocols}
 * (SSLHostConfig protocols, default {@code TLSv1.2+TLSv1.3}), {@code server.budget} (new full handshakes per
 * second, gated only, default 100), {@code server.key} ({@code RSA_2048} | {@code RSA_4096} | {@code EC_P256}),
 * {@code server.jdk} (feature version, default the running JDK), {@code server.scale} (RUBiS data set scale,
 * default 0.01), {@code server.maxKeepAliveRequests} (default 100, Tomcat's).
 */
public final class RubisLauncher {

    private RubisLauncher() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        String mode = System.getProperty("server.mode", "gated").toLowerCase(Locale.ROOT);
        if (!mode.equals("gated") && !mode.equals("stock")) {
            System.err.println("server.mode must be gated or stock, got '" + mode + "'");
            System.exit(2);
        }
        boolean gated = mode.equals("gated");
        String protocols = System.getProperty("server.protocols", "TLSv1.2+TLSv1.3");
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        TestKeystore keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"),
                TestKeystore.KeyType.valueOf(System.getProperty("server.key", "RSA_2048")));
        ConnectorSpec tls = gated
                ? RubisTomcat.gated("tls", keystore, protocols, System.getProperty("server.budget", "100"))
                : RubisTomcat.stock("tls", keystore, protocols);
        tls.attribute("maxKeepAliveRequests", System.getProperty("server.maxKeepAliveRequests", "100"));
        TomcatServer.Builder builder = TomcatServer.builder(distribution)
                .name("rubis-" + mode)
                .connector(tls)
                .connector(ConnectorSpec.http("plain"))
                .webapp(RubisTomcat.war())
                .catalinaOpt("-Xmx1g")
                .catalinaOpt("-Drubis.scale=" + System.getProperty("server.scale", "0.01"));
        String jdk = System.getProperty("server.jdk");
        if (jdk != null) {
            builder.jdk(Jdk.find(Integer.parseInt(jdk)).orElseThrow(
                    () -> new IllegalStateException("no JDK " + jdk + " under /usr/lib/jvm")));
        }
        if (gated) {
            builder.lib(RubisTomcat.gateJar()).engineXml(RubisTomcat.GATE_VALVE).jmx();
        }
        TomcatServer tomcat = builder.build().start();
        Runtime.getRuntime().addShutdownHook(new Thread(tomcat::close, "rubis-server-stop"));
        String arguments = "-Drubis.baseUrl=https://127.0.0.1:" + tomcat.port("tls")
                + (gated ? " -Drubis.metricsUrl=http://127.0.0.1:" + tomcat.port("plain") + "/tlsadmit/metrics" : "")
                + " -Drubis.serverPid=" + tomcat.pid();
        Files.writeString(RubisTomcat.target().resolve("rubis-server.args"), arguments + "\n");
        System.out.println("rubis-server: " + mode + " Tomcat " + distribution.version() + " in " + tomcat.base());
        System.out.println("rubis-server: health http://127.0.0.1:" + tomcat.port("plain") + "/rubis/health");
        System.out.println("rubis-server: mvn -pl loadtests gatling:test " + arguments);
        System.out.println("rubis-server: (also in target/rubis-server.args); Ctrl-C stops the server");
        while (tomcat.isRunning()) {
            Thread.sleep(1000);
        }
        System.err.println("rubis-server: Tomcat exited\n" + tomcat.tail());
    }
}
