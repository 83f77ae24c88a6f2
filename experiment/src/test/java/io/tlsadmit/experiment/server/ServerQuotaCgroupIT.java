package io.tlsadmit.experiment.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The quota CPU change's cgroup on this machine's real hierarchy (root only: skipped otherwise). */
class ServerQuotaCgroupIT {

    @Test
    void aProcessIsMovedInLimitedToHalfACpuAndTheCgroupIsGoneAfterwards() throws Exception {
        ServerQuotaCgroup cgroup;
        try {
            cgroup = ServerQuotaCgroup.create("tlsadmit-experiment-it-" + ProcessHandle.current().pid());
        } catch (IllegalStateException e) {
            assumeTrue(false, "no writable cgroup cpu controller here: " + e.getMessage());
            return;
        }
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        Path dir = cgroup.path();
        try (cgroup) {
            cgroup.adopt(sleeper.pid());
            cgroup.limit(0.5);
            assertTrue(Files.readString(dir.resolve("cgroup.procs")).lines().toList()
                    .contains(Long.toString(sleeper.pid())));
            List<String> quota = List.of(cgroup.describe().split(" "));
            assertEquals(List.of("50000", "100000"), quota, "half of each 100 ms period");
            String own = Files.readString(Path.of("/proc", Long.toString(sleeper.pid()), "cgroup"));
            assertTrue(own.contains(dir.getFileName().toString()), own);
        } finally {
            // closing with the process still inside: it goes back to the root, the cgroup goes
            sleeper.destroy();
        }
        assertFalse(Files.exists(dir), dir + " left behind");
    }
}
