package io.tlsadmit.peek;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The real-client ClientHellos in {@code testdata/clienthello/*.bin}. */
final class RecordedHellos {

    record Hello(Path file, byte[] bytes) {
    }

    private RecordedHellos() {
    }

    static Path directory() {
        String root = System.getProperty("tlsadmit.root");
        return (root == null ? Path.of("..") : Path.of(root)).resolve("testdata/clienthello");
    }

    static List<Hello> all() {
        try (Stream<Path> files = Files.list(directory())) {
            List<Hello> hellos = files.filter(p -> p.toString().endsWith(".bin")).sorted()
                    .map(RecordedHellos::load).toList();
            if (hellos.size() < 20) {
                throw new IllegalStateException("expected the recorded hellos in " + directory() + ", found "
                        + hellos.size());
            }
            return hellos;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Hello load(Path file) {
        try {
            return new Hello(file, Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
