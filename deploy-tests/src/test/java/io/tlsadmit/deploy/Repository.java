package io.tlsadmit.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout under test: the deployment files live at its root and in {@code deploy/}. */
final class Repository {

    private Repository() {
    }

    static Path root() {
        String root = System.getProperty("tlsadmit.root");
        if (root == null || root.isBlank()) {
            throw new IllegalStateException("System property tlsadmit.root is not set; run the tests through Maven");
        }
        return Path.of(root).toAbsolutePath().normalize();
    }

    static Path file(String relative) {
        Path file = root().resolve(relative);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Missing " + relative + " in " + root());
        }
        return file;
    }

    static String read(String relative) {
        try {
            return Files.readString(file(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
