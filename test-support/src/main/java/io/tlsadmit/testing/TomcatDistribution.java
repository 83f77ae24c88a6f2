package io.tlsadmit.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.jar.JarFile;

/**
 * An unpacked Apache Tomcat distribution (CATALINA_HOME). It is never written to: every
 * {@link TomcatServer} gets its own CATALINA_BASE, so tests cannot leak state into each other.
 */
public final class TomcatDistribution {

    /** System property the consuming module's build sets to the unpacked distribution. */
    public static final String HOME_PROPERTY = "tlsadmit.catalina.home";

    private final Path home;
    private final String version;

    private TomcatDistribution(Path home) {
        this.home = home.toAbsolutePath().normalize();
        if (!Files.isRegularFile(this.home.resolve("bin/catalina.sh"))
                || !Files.isRegularFile(this.home.resolve("lib/catalina.jar"))) {
            throw new IllegalStateException("Not a Tomcat distribution (no bin/catalina.sh or lib/catalina.jar): "
                    + this.home);
        }
        this.version = readVersion(this.home.resolve("lib/catalina.jar"));
    }

    /** The distribution the build unpacked, named by the {@value #HOME_PROPERTY} system property. */
    public static TomcatDistribution fromBuild() {
        String home = System.getProperty(HOME_PROPERTY);
        if (home == null || home.isBlank()) {
            throw new IllegalStateException("System property " + HOME_PROPERTY + " is not set: the module's pom must"
                    + " unpack org.apache.tomcat:tomcat:${tomcat.version}:tar.gz and pass its directory to surefire"
                    + " (see test-support/README.md)");
        }
        return at(Path.of(home));
    }

    public static TomcatDistribution at(Path home) {
        return new TomcatDistribution(home);
    }

    public Path home() {
        return home;
    }

    /** e.g. {@code 11.0.25}, as Tomcat reports itself. */
    public String version() {
        return version;
    }

    Path catalinaScript() {
        return home.resolve("bin/catalina.sh");
    }

    private static String readVersion(Path catalinaJar) {
        try (JarFile jar = new JarFile(catalinaJar.toFile());
             InputStream in = jar.getInputStream(jar.getEntry("org/apache/catalina/util/ServerInfo.properties"))) {
            Properties info = new Properties();
            info.load(in);
            String number = info.getProperty("server.number", "");
            // server.number has four parts (11.0.25.0); the release is the first three.
            String[] parts = number.split("\\.");
            return parts.length >= 3 ? parts[0] + "." + parts[1] + "." + parts[2] : number;
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("Cannot read the Tomcat version from " + catalinaJar, e);
        }
    }

    @Override
    public String toString() {
        return "Tomcat " + version + " at " + home;
    }
}
