package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The files under a directory this process holds open, from its descriptors' links in {@code /proc/self/fd}. */
final class OpenFiles {

    private OpenFiles() {
    }

    static boolean visible() {
        return Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /** Each open file under {@code root}, as a path relative to it, with its descriptor's number. */
    static Map<String, Integer> under(Path root) throws IOException {
        Path realRoot = root.toRealPath();
        Map<String, Integer> open = new TreeMap<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                Path target;
                try {
                    target = Files.readSymbolicLink(fd);
                } catch (IOException e) {
                    continue; // closed since the listing (the listing's own descriptor)
                }
                if (target.startsWith(realRoot)) {
                    open.put(realRoot.relativize(target).toString(), Integer.parseInt(fd.getFileName().toString()));
                }
            }
        }
        return open;
    }
}
