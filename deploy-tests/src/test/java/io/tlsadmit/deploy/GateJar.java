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
 * The gate jar the valve module builds. A copy is taken and read through before Tomcat gets it: in a working tree
 * where the valve is being rebuilt, the jar can be caught half-written, and Tomcat would then fail with a
 * ClassNotFoundException that says nothing about why.
 */
final class GateJar {

    private GateJar() {
    }

    static Path completeCopy(Path into) {
        Path jar = Path.of(System.getProperty("tlsadmit.gate.jar", "valve/target/tlsadmit-tomcat.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No gate jar at " + jar + ": build it first (mvn -pl valve -am package)");
        }
        Path copy = into.resolve("tlsadmit-tomcat.jar");
        for (int attempt = 1; ; attempt++) {
            try {
                Files.createDirectories(into);
                Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
                readThrough(copy);
                return copy;
            } catch (IOException e) {
                if (attempt == 10) {
                    throw new UncheckedIOException("The gate jar " + jar + " stays unreadable (is a build writing it?)", e);
                }
                sleep();
            }
        }
    }

    private static void readThrough(Path jar) throws IOException {
        try (InputStream in = Files.newInputStream(jar); ZipInputStream zip = new ZipInputStream(in)) {
            int entries = 0;
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                zip.transferTo(OutputStream.nullOutputStream()); // reading to the end checks the CRC
                entries++;
            }
            if (entries == 0) {
                throw new IOException("no entries in " + jar);
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(3000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
