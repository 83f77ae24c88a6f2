package io.tlsadmit.attack.report;

import io.tlsadmit.testing.Jdk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Where and with what the numbers were measured: machine, the driver's JDK, the JDK Tomcat ran on, Tomcat, date,
 * and which gate jar.
 */
public record RunDescription(String date, int cpus, String cpuModel, String jdk, String tomcatJdk, String tomcat,
                             String gateJar, String gateBuild, String command) {

    public static RunDescription of(Path gateJar, String tomcatVersion, Jdk tomcatJdk, String command) {
        return new RunDescription(
                DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(Instant.now().atOffset(ZoneOffset.UTC).withNano(0)) + "Z",
                Runtime.getRuntime().availableProcessors(),
                readCpuModel(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                tomcatJdk.feature() + " (" + tomcatJdk.home() + ")",
                tomcatVersion,
                gateJar.toAbsolutePath().toString(),
                gateBuild(gateJar),
                command);
    }

    /** The first "model name" of /proc/cpuinfo (read once, for the report). */
    private static String readCpuModel() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            return lines.filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Size, SHA-256 prefix, newest class inside (when it was built) and the manifest's version. */
    private static String gateBuild(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            long newest = file.stream().filter(e -> e.getName().startsWith("io/tlsadmit/"))
                    .mapToLong(e -> e.getTime()).max().orElse(0);
            String version = file.getManifest() == null ? "?"
                    : String.valueOf(file.getManifest().getMainAttributes().getValue("Implementation-Version"));
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(jar));
            return String.format("%s, %d bytes, sha256 %s…, classes built %s", version, Files.size(jar),
                    HexFormat.of().formatHex(digest).substring(0, 12),
                    DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(Instant.ofEpochMilli(newest).atOffset(ZoneOffset.UTC)));
        } catch (IOException | NoSuchAlgorithmException e) {
            return "unreadable: " + e.getMessage();
        }
    }
}
