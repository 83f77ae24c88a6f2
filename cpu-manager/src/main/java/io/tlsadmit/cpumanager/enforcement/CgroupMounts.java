package io.tlsadmit.cpumanager.enforcement;

import io.tlsadmit.admission.cpu.MountTable;

import java.util.List;
import java.util.Optional;

/**
 * Where the cgroup hierarchies with the CPU controller are mounted, from {@code mountinfo} lines, by
 * admission's own {@link MountTable}: the manager creates its cgroups where the gates read theirs.
 */
final class CgroupMounts {

    private CgroupMounts() {
    }

    /** The mount point of the unified (v2) hierarchy, if mounted. */
    static Optional<String> unified(List<String> mountinfoLines) {
        return MountTable.cgroupMounts(mountinfoLines).stream()
                .filter(m -> m.fsType().equals("cgroup2") && m.root().equals("/"))
                .map(MountTable.Mount::mountPoint).findFirst();
    }

    /** The mount point of the v1 hierarchy that has the {@code cpu} controller, if mounted. */
    static Optional<String> cpuV1(List<String> mountinfoLines) {
        return MountTable.cgroupMounts(mountinfoLines).stream()
                .filter(m -> m.fsType().equals("cgroup") && m.superOptions().contains("cpu") && m.root().equals("/"))
                .map(MountTable.Mount::mountPoint).findFirst();
    }
}
