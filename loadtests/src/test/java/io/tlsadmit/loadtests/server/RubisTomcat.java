package io.tlsadmit.loadtests.server;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.TestKeystore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** The pieces of a RUBiS Tomcat for load runs: the packaged WAR and gate jar, and its TLS connectors. */
public final class RubisTomcat {

    public static final String GATE_PROTOCOL = "io.tlsadmit.tomcat.AdmissionNioProtocol";
    public static final String GATE_VALVE = "<Valve className=\"io.tlsadmit.tomcat.TlsAdmissionValve\"/>";

    private RubisTomcat() {
    }

    /**
     * {@code rubis.war} as the build packaged it ({@code -Dloadtests.rubis.war}); a WAR of another name is copied
     * to {@code target/deploy/rubis.war} first, since Tomcat takes the context path (/rubis) from the file name.
     */
    public static Path war() {
        Path war = existing("loadtests.rubis.war");
        if (war.getFileName().toString().equals("rubis.war")) {
            return war;
        }
        try {
            Path renamed = target().resolve("deploy").resolve("rubis.war");
            Files.createDirectories(renamed.getParent());
            return Files.copy(war, renamed, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + war + " to target/deploy/rubis.war", e);
        }
    }

    /** {@code tlsadmit-tomcat.jar} as the build packaged it ({@code -Dloadtests.gate.jar}). */
    public static Path gateJar() {
        return existing("loadtests.gate.jar");
    }

    /**
     * This module's build directory: {@code -Dloadtests.target} under exec:java, whose working directory is wherever
     * Maven was started; the working directory (the module) under failsafe.
     */
    public static Path target() {
        return Path.of(System.getProperty("loadtests.target", "target"));
    }

    /** A TLS connector with the gate's static budget; {@code protocols} as in SSLHostConfig. */
    public static ConnectorSpec gated(String name, TestKeystore keystore, String protocols, String perSecond) {
        return stock(name, keystore, protocols)
                .protocol(GATE_PROTOCOL)
                .attribute("budget", "static")
                .attribute("maxFullHandshakesPerSecond", perSecond)
                .attribute("fullHandshakeBurst", perSecond.equals("0") ? "0" : "1000");
    }

    /** A plain Tomcat TLS connector, as the stock server of the experiment has it. */
    public static ConnectorSpec stock(String name, TestKeystore keystore, String protocols) {
        return ConnectorSpec.https(name, keystore)
                .attribute("maxThreads", "200")
                .sslHostConfig("protocols", protocols);
    }

    private static Path existing(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException("system property " + property + " is not set (see loadtests/pom.xml)");
        }
        Path path = Path.of(value);
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException(property + ": no file at " + path.toAbsolutePath()
                    + "; build it first (mvn -pl loadtests -am install -DskipTests)");
        }
        return path;
    }
}
