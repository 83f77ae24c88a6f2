package io.tlsadmit.admission.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The fields of a Linux {@code stat} file this project reads — {@code /proc/<pid>/stat} for a process (all its
 * threads), {@code /proc/<pid>/task/<tid>/stat} or {@code /proc/thread-self/stat} for one thread: its CPU time and
 * its nice value. One parser for the gate, the CPU manager and the benchmark harnesses.
 *
 * <p>Why the parsing is careful: the second field is the command name in parentheses, and a name may itself hold
 * spaces and parentheses ({@code "(exec (1) x)"}), so fields are counted after the <em>last</em> ')'. The times are
 * in {@code USER_HZ} ticks, which Linux fixes at 100 per second for user space on every architecture the JDK runs
 * on ({@link #TICKS_PER_SECOND}).
 *
 * @param userTicks   {@code utime}, field 14
 * @param systemTicks {@code stime}, field 15
 * @param nice        field 19, -20 (highest priority) to 19 (lowest)
 */
public record TaskStat(long userTicks, long systemTicks, int nice) {

    /** {@code USER_HZ}. */
    public static final long TICKS_PER_SECOND = 100;
    public static final long NANOS_PER_TICK = 1_000_000_000L / TICKS_PER_SECOND;

    // Positions counted from the state (field 3), the first field after the name.
    private static final int UTIME = 14 - 3;
    private static final int STIME = 15 - 3;
    private static final int NICE = 19 - 3;

    /** {@code utime + stime}. */
    public long cpuTicks() {
        return userTicks + systemTicks;
    }

    public double cpuSeconds() {
        return cpuTicks() / (double) TICKS_PER_SECOND;
    }

    /**
     * @throws IllegalArgumentException for a line that is not a stat line (no name, too few fields, a number that is
     *                                  not one)
     */
    public static TaskStat parse(String line) {
        int close = line.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc stat line (no command name): " + abbreviated(line));
        }
        String[] fields = line.substring(close + 1).strip().split(" +");
        if (fields.length <= NICE) {
            throw new IllegalArgumentException("a /proc stat line with " + (fields.length + 2) + " fields: "
                    + abbreviated(line));
        }
        try {
            return new TaskStat(Long.parseLong(fields[UTIME]), Long.parseLong(fields[STIME]),
                    Integer.parseInt(fields[NICE]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a /proc stat line with a field that is not a number: "
                    + abbreviated(line), e);
        }
    }

    /**
     * @throws IOException where the file cannot be read (a thread or process that has exited, no {@code /proc})
     * @throws IllegalArgumentException where it is not a stat file
     */
    public static TaskStat read(Path stat) throws IOException {
        return parse(Files.readString(stat, StandardCharsets.US_ASCII));
    }

    /** The stat file's fields, or empty where it cannot be read or parsed (a task gone between list and read). */
    public static Optional<TaskStat> readIfPresent(Path stat) {
        try {
            return Optional.of(read(stat));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The stat file of process {@code pid}: all its threads. */
    public static Path ofProcess(long pid) {
        return Path.of("/proc", Long.toString(pid), "stat");
    }

    private static String abbreviated(String line) {
        String one = line.strip();
        return one.length() <= 120 ? one : one.substring(0, 120) + "…";
    }
}
