package io.tlsadmit.cpumanager.enforcement;

import io.tlsadmit.admission.cpu.CgroupCpuQuota;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CFS limit of another process exactly as its gate computes it: admission's {@link CgroupCpuQuota}
 * reads {@code /proc/self}, so it is given a root whose {@code proc/self} is the process's
 * {@code /proc/<pid>} and whose {@code sys} is the real one. The manager checks what it enforced with
 * the reader the gate uses, not with a second opinion.
 */
public final class ProcessCgroupView {

    private ProcessCgroupView() {
    }

    /** The smallest quota along the process's cgroups, {@code +Infinity} when none. */
    public static double cpuLimit(Path fsRoot, long pid) {
        Path view = null;
        try {
            view = Files.createTempDirectory("tlsadmit-cgroup-view-");
            Files.createDirectories(view.resolve("proc"));
            Files.createSymbolicLink(view.resolve("proc/self"), fsRoot.toAbsolutePath().resolve("proc/" + pid));
            Files.createSymbolicLink(view.resolve("sys"), fsRoot.toAbsolutePath().resolve("sys"));
            return new CgroupCpuQuota(view).read().min();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (view != null) {
                try {
                    Files.deleteIfExists(view.resolve("proc/self"));
                    Files.deleteIfExists(view.resolve("sys"));
                    Files.deleteIfExists(view.resolve("proc"));
                    Files.deleteIfExists(view);
                } catch (IOException ignored) {
                    // a temporary directory left behind is harmless
                }
            }
        }
    }
}
