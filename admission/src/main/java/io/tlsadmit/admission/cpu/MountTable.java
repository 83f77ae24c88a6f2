package io.tlsadmit.admission.cpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The cgroup mounts from {@code /proc/self/mountinfo}. Reading the mount table, rather than assuming
 * {@code /sys/fs/cgroup}, finds the hierarchy on pure v2, hybrid (v2 at {@code .../unified}) and v1
 * hosts alike, and tells which part of the hierarchy a container sees ({@code root}).
 */
public final class MountTable {

    /**
     * @param root         the directory of the cgroup hierarchy mounted here ({@code /} unless a
     *                     container sees only its own subtree)
     * @param mountPoint   where it is mounted
     * @param fsType       {@code cgroup2} or {@code cgroup}
     * @param superOptions for v1, the controllers of this hierarchy among others ({@code cpu})
     */
    public record Mount(String root, String mountPoint, String fsType, Set<String> superOptions) {
    }

    private MountTable() {
    }

    /** The cgroup and cgroup2 mounts among the lines; malformed lines are skipped. */
    public static List<Mount> cgroupMounts(List<String> mountinfoLines) {
        List<Mount> mounts = new ArrayList<>();
        for (String line : mountinfoLines) {
            // "36 35 98:0 /root /mnt rw,noatime master:1 - cgroup2 cgroup2 rw": the optional
            // fields before " - " vary in number, so split there first.
            int separator = line.indexOf(" - ");
            if (separator < 0) {
                continue;
            }
            String[] before = line.substring(0, separator).trim().split(" +");
            String[] after = line.substring(separator + 3).trim().split(" +");
            if (before.length < 5 || after.length < 1) {
                continue;
            }
            String fsType = after[0];
            if (!fsType.equals("cgroup2") && !fsType.equals("cgroup")) {
                continue;
            }
            Set<String> superOptions = after.length >= 3 ? Set.copyOf(Arrays.asList(after[2].split(","))) : Set.of();
            mounts.add(new Mount(unescape(before[3]), unescape(before[4]), fsType, superOptions));
        }
        return mounts;
    }

    /** The kernel writes space, tab, newline and backslash in paths as three-digit octal escapes. */
    static String unescape(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && isOctal(field, i + 1)) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isOctal(String s, int from) {
        if (from + 3 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 3; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '7') {
                return false;
            }
        }
        return true;
    }
}
