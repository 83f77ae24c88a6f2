package io.tlsadmit.cpumanager.enforcement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Affinity of every thread of a real JVM with {@code taskset -a}, read back per thread from {@code /proc}. */
class ThreadAffinityTest {

    @Test
    void everyThreadMovesAndMovesBack() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs");
        ThreadAffinity affinity = new ThreadAffinity(Path.of("/"));
        try (ChildJvm child = ChildJvm.start(false)) {
            Thread.sleep(500); // its threads exist
            affinity.pin(child.pid(), List.of(1));
            assertEquals(Set.of("1"), affinity.threadCpuLists(child.pid()));
            affinity.pin(child.pid(), List.of(0, 1));
            assertEquals(Set.of("0-1"), affinity.threadCpuLists(child.pid()));
        }
    }
}
