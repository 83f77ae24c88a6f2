package io.tlsadmit.peek;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A build where no C compiler is found (here: {@code -Dnative.cc} names one that is not on PATH, which is what
 * the build checks on a machine without gcc) passes, says once that it skipped the C part, and still packages
 * native-peek, without a library. Runs a real Maven, offline, on a copy of ssl-classifier and native-peek, so the
 * outer build's target/ directories are not touched.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class WithoutCompilerBuildIT {

    @Test
    void theBuildSkipsTheCPartWithOneLineAndStillPackagesTheJar(@TempDir Path copy) throws Exception {
        Path root = Path.of(System.getProperty("tlsadmit.root"));
        String version = System.getProperty("tlsadmit.version");
        // the parent pom with only the two modules a native-peek build needs
        String parent = Files.readString(root.resolve("pom.xml")).replaceFirst("(?s)<modules>.*</modules>",
                "<modules><module>ssl-classifier</module><module>native-peek</module></modules>");
        Files.writeString(copy.resolve("pom.xml"), parent);
        for (String part : List.of("ssl-classifier/pom.xml", "ssl-classifier/src", "native-peek/pom.xml",
                "native-peek/Makefile", "native-peek/src")) {
            copyTree(root.resolve(part), copy.resolve(part));
        }

        Path log = copy.resolve("build.log");
        Process maven = new ProcessBuilder(Path.of(System.getProperty("maven.home"), "bin", "mvn").toString(),
                "-B", "-ntp", "-o", "-Dmaven.repo.local=" + System.getProperty("maven.repo.local"),
                "package", "-DskipTests", "-Dnative.cc=no-such-cc")
                .directory(copy.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(maven.waitFor(3, TimeUnit.MINUTES), "the child build finished");
        String output = Files.readString(log);
        assertEquals(0, maven.exitValue(), output);

        List<String> skipLines = output.lines().filter(l -> l.contains("native-peek: no no-such-cc on PATH")).toList();
        assertEquals(1, skipLines.size(), output);
        assertTrue(skipLines.get(0).contains("skipping the C library, CLI and C tests"), skipLines.get(0));
        assertTrue(output.lines().noneMatch(l -> l.contains("no-such-cc -std=")), "no compiler was invoked");

        try (JarFile jar = new JarFile(copy.resolve("native-peek/target/native-peek-" + version + ".jar").toFile())) {
            assertNotNull(jar.getEntry("io/tlsadmit/peek/NativePeek.class"));
            assertTrue(jar.stream().noneMatch(e -> e.getName().startsWith("META-INF/native/")),
                    "no native library in the jar");
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            files.forEach(file -> {
                try {
                    Path target = to.resolve(from.relativize(file).toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(target);
                    } else {
                        Files.createDirectories(target.getParent());
                        Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
