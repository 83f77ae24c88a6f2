package io.tlsadmit.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** A JDK installation that can run Tomcat (JAVA_HOME) and its tools. */
public record Jdk(Path home, int feature) {

    /** Where Debian and the Temurin packages install JDKs. */
    private static final Path JVM_DIR = Path.of("/usr/lib/jvm");
    private static final Pattern RELEASE_VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    public Jdk {
        home = home.toAbsolutePath().normalize();
    }

    /** The JDK running this test. */
    public static Jdk current() {
        return new Jdk(Path.of(System.getProperty("java.home")), Runtime.version().feature());
    }

    /**
     * A JDK of the given feature release ({@code 17}, {@code 25}) under /usr/lib/jvm, preferring the
     * current one. Empty when none is installed, so a test can skip rather than fail on a machine without it.
     */
    public static Optional<Jdk> find(int feature) {
        if (Runtime.version().feature() == feature) {
            return Optional.of(current());
        }
        if (!Files.isDirectory(JVM_DIR)) {
            return Optional.empty();
        }
        try (Stream<Path> dirs = Files.list(JVM_DIR)) {
            List<Path> candidates = dirs.sorted(Comparator.comparing(Path::toString)).toList();
            for (Path dir : candidates) {
                Optional<Integer> version = releaseFeature(dir);
                if (version.isPresent() && version.get() == feature && Files.isExecutable(dir.resolve("bin/java"))) {
                    return Optional.of(new Jdk(dir.toRealPath(), feature));
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public Path java() {
        return home.resolve("bin/java");
    }

    public Path keytool() {
        return home.resolve("bin/keytool");
    }

    private static Optional<Integer> releaseFeature(Path jdkHome) {
        Path release = jdkHome.resolve("release");
        if (!Files.isRegularFile(release)) {
            return Optional.empty();
        }
        try {
            Matcher m = RELEASE_VERSION.matcher(Files.readString(release));
            return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
