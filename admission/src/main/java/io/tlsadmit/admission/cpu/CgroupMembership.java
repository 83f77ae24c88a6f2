package io.tlsadmit.admission.cpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The lines of {@code /proc/self/cgroup}: {@code hierarchy-id:controllers:path}. On cgroup v2 the
 * single line is {@code 0::/path}; on v1 each hierarchy has its own line naming its controllers
 * ({@code 4:cpu,cpuacct:/path}). Hybrid hosts have both.
 */
record CgroupMembership(int hierarchy, Set<String> controllers, String path) {

    boolean isUnified() {
        return hierarchy == 0 && controllers.isEmpty();
    }

    static List<CgroupMembership> parse(List<String> lines) {
        List<CgroupMembership> memberships = new ArrayList<>();
        for (String line : lines) {
            int first = line.indexOf(':');
            int second = first < 0 ? -1 : line.indexOf(':', first + 1);
            if (second < 0) {
                continue;
            }
            int hierarchy;
            try {
                hierarchy = Integer.parseInt(line.substring(0, first));
            } catch (NumberFormatException e) {
                continue;
            }
            String list = line.substring(first + 1, second);
            Set<String> controllers = list.isEmpty() ? Set.of() : Set.copyOf(Arrays.asList(list.split(",")));
            memberships.add(new CgroupMembership(hierarchy, controllers, line.substring(second + 1)));
        }
        return memberships;
    }
}
