package io.tlsadmit.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What can be shown without root: the removal on plain directories. On a real hierarchy (moving the processes out
 * first) it runs in experiment's {@code ServerQuotaCgroupIT} and cpu-manager's experiment harness.
 */
class CgroupRemovalTest {

    @Test
    void aGroupThatIsNotThereIsAlreadyGone(@TempDir Path hierarchy) {
        assertTrue(CgroupRemoval.remove(hierarchy, hierarchy.resolve("never-made")));
    }

    @Test
    void anEmptyGroupIsRemovedAndNothingIsMoved(@TempDir Path hierarchy) throws Exception {
        Path group = Files.createDirectory(hierarchy.resolve("tlsadmit-test"));
        assertTrue(CgroupRemoval.remove(hierarchy, group));
        assertFalse(Files.exists(group));
        assertFalse(Files.exists(hierarchy.resolve("cgroup.procs")), "no process to move, nothing written");
    }
}
