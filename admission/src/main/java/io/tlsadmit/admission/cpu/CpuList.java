package io.tlsadmit.admission.cpu;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** CPU numbers in the kernel's list syntax ({@code "0-3,6"}), as {@code taskset -c} and cpusets write them. */
public final class CpuList {

    private CpuList() {
    }

    /** @throws IllegalArgumentException with what is wrong, for the caller to attach to its key */
    public static List<Integer> parse(String text) {
        TreeSet<Integer> cpus = new TreeSet<>();
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty CPU list");
        }
        for (String part : text.trim().split(",")) {
            String range = part.trim();
            String[] ends = range.split("-", -1);
            if (ends.length > 2 || range.isEmpty()) {
                throw new IllegalArgumentException("'" + range + "' is not a CPU number or range like 0-3");
            }
            int from = number(ends[0], range);
            int to = ends.length == 2 ? number(ends[1], range) : from;
            if (to < from) {
                throw new IllegalArgumentException("range '" + range + "' runs backwards");
            }
            for (int cpu = from; cpu <= to; cpu++) {
                if (!cpus.add(cpu)) {
                    throw new IllegalArgumentException("CPU " + cpu + " is listed twice");
                }
            }
        }
        return List.copyOf(cpus);
    }

    private static int number(String text, String range) {
        try {
            int cpu = Integer.parseInt(text.trim());
            if (cpu < 0 || cpu > 4095) {
                throw new IllegalArgumentException("CPU " + cpu + " in '" + range + "' is out of 0-4095");
            }
            return cpu;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + range + "' is not a CPU number or range like 0-3");
        }
    }

    /** The shortest list syntax for these CPUs: {@code [0,1,2,5]} is {@code "0-2,5"}. */
    public static String format(List<Integer> cpus) {
        List<String> parts = new ArrayList<>();
        List<Integer> sorted = cpus.stream().sorted().collect(Collectors.toList());
        int i = 0;
        while (i < sorted.size()) {
            int start = sorted.get(i);
            int end = start;
            while (i + 1 < sorted.size() && sorted.get(i + 1) == end + 1) {
                end = sorted.get(++i);
            }
            parts.add(start == end ? Integer.toString(start) : start + "-" + end);
            i++;
        }
        return String.join(",", parts);
    }
}
