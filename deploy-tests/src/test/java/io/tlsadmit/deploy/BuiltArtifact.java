package io.tlsadmit.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A jar or war another module builds, copied and read through before a test uses it. In a working tree where that
 * module is being rebuilt the file can be caught half-written, and Tomcat or java would then fail with an error
 * that says nothing about why.
 */
enum BuiltArtifact {
    GATE_JAR("tlsadmit.gate.jar", "valve/target/tlsadmit-tomcat.jar", "mvn -pl valve -am package"),
    RUBIS_WAR("tlsadmit.rubis.war", "rubis-app/target/rubis.war", "mvn -pl rubis-app -am package"),
    RUBIS_DATAGEN("tlsadmit.rubis.datagen", "rubis-app/target/rubis-datagen.jar", "mvn -pl rubis-app -am package"),
    LOADTESTS_JAR("tlsadmit.loadtests.jar", "loadtests/target/loadtests-0.2.0.jar", "mvn -pl loadtests -am package"),
    TEST_SUPPORT_JAR("tlsadmit.testsupport.jar", "test-support/target/test-support-0.2.0.jar",
            "mvn -pl test-support -am package");

    private final String property;
    private final String defaultPath;
    private final String build;

    BuiltArtifact(String property, String defaultPath, String build) {
        this.property = property;
        this.defaultPath = defaultPath;
        this.build = build;
    }

    Path source() {
        String configured = System.getProperty(property);
        return configured != null ? Path.of(configured) : Repository.root().resolve(defaultPath);
    }

    /** A complete copy in {@code dir}, under the artifact's own file name. */
    Path copyInto(Path dir) {
        Path source = source();
        if (!Files.isRegularFile(source)) {
            throw new IllegalStateException("No " + source + ": build it first (" + build + ")");
        }
        Path copy = dir.resolve(source.getFileName());
        for (int attempt = 1; ; attempt++) {
            try {
                Files.createDirectories(dir);
                Files.copy(source, copy, StandardCopyOption.REPLACE_EXISTING);
                readThrough(copy);
                return copy;
            } catch (IOException e) {
                if (attempt == 10) {
                    throw new UncheckedIOException(source + " stays unreadable (is a build writing it?)", e);
                }
                pause();
            }
        }
    }

    private static void readThrough(Path archive) throws IOException {
        try (InputStream in = Files.newInputStream(archive); ZipInputStream zip = new ZipInputStream(in)) {
            int entries = 0;
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                zip.transferTo(OutputStream.nullOutputStream()); // reading each entry to its end checks its CRC
                entries++;
            }
            if (entries == 0) {
                throw new IOException("no entries in " + archive);
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(3000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
