package io.tlsadmit.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Removes a cgroup a test or a benchmark harness made, moving any process still in it to the hierarchy's root
 * first: the kernel refuses to remove a cgroup that holds a process, and a harness that fails half-way must not
 * leave its groups behind (a quota or a weight left on the host skews the next run).
 *
 * <p>Retries for about five seconds: a process that was just killed stays listed in {@code cgroup.procs} until it
 * has exited, and a process written to the root while it exits makes that write fail.
 */
public final class CgroupRemoval {

    private static final int ATTEMPTS = 50;
    private static final long PAUSE_MILLIS = 100;

    private CgroupRemoval() {
    }

    /**
     * @param hierarchy the mount point of the cgroup hierarchy (v1 {@code cpu} or v2 unified); its
     *                  {@code cgroup.procs} is where the remaining processes go
     * @param group     the cgroup directory to remove; nothing happens when it does not exist
     * @return whether the group is gone (false after the attempts, or when interrupted: the interrupt is kept)
     */
    public static boolean remove(Path hierarchy, Path group) {
        for (int attempt = 0; attempt < ATTEMPTS && Files.isDirectory(group); attempt++) {
            for (String pid : members(group)) {
                try {
                    // cgroup files take one value per write(2)
                    Files.writeString(hierarchy.resolve("cgroup.procs"), pid + "\n", StandardCharsets.UTF_8);
                } catch (IOException exited) {
                    // it is leaving by itself
                }
            }
            try {
                Files.delete(group);
            } catch (IOException notYet) {
                try {
                    Thread.sleep(PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return !Files.isDirectory(group);
    }

    private static List<String> members(Path group) {
        try {
            return Files.readAllLines(group.resolve("cgroup.procs")).stream().map(String::strip)
                    .filter(pid -> !pid.isEmpty()).toList();
        } catch (IOException gone) {
            return List.of();
        }
    }
}
