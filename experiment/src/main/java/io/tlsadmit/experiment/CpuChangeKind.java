package io.tlsadmit.experiment;

import java.util.List;
import java.util.Locale;

/**
 * How the server's CPUs change mid-run (issue 14): {@link #TASKSET} moves its threads from CPU 0 to CPUs 0–1 and
 * back; {@link #QUOTA} keeps them on CPU 0 and puts the processes in a cgroup whose CFS quota goes from 1 CPU to
 * 0.5 and back. Each kind writes its own files, named by {@link #files()}.
 */
public enum CpuChangeKind {
    TASKSET("taskset", "cpu-change", new double[] {1, 2, 1}),
    QUOTA("quota", "cpu-quota-change", new double[] {1, 0.5, 1});

    private final String label;
    private final String files;
    private final double[] phaseCpus;

    CpuChangeKind(String label, String files, double[] phaseCpus) {
        this.label = label;
        this.files = files;
        this.phaseCpus = phaseCpus;
    }

    public String label() {
        return label;
    }

    /** Stem of this kind's result files: {@code <files>.csv}, {@code <files>-budget.csv}, {@code <files>.png}, … */
    public String files() {
        return files;
    }

    /** The server's CPUs in phase 0, 1, 2 (the quota's 0.5 is half a CPU's time). */
    public double cpus(int phase) {
        return phaseCpus[phase];
    }

    /** e.g. {@code 1}, {@code 0.5}: as the CSV's {@code server_cpus} column writes it. */
    public String cpusText(int phase) {
        double c = phaseCpus[phase];
        return c == Math.rint(c) ? Long.toString((long) c) : String.format(Locale.ROOT, "%s", c);
    }

    /** e.g. {@code 1 -> 2 -> 1 CPUs (taskset)}. */
    public String describe() {
        return cpusText(0) + " -> " + cpusText(1) + " -> " + cpusText(2) + " CPUs (" + label + ")";
    }

    /** {@code taskset}, {@code quota} or {@code both}, for {@code --cpu-change-kind}. */
    public static List<CpuChangeKind> parse(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "taskset" -> List.of(TASKSET);
            case "quota" -> List.of(QUOTA);
            case "both" -> List.of(TASKSET, QUOTA);
            default -> throw new IllegalArgumentException("--cpu-change-kind must be taskset, quota or both, got '"
                    + value + "'");
        };
    }
}
