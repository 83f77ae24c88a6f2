package io.tlsadmit.cpumanager.config;

import io.tlsadmit.admission.cpu.CpuList;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads the YAML configuration and checks every key before the manager touches anything: a typo must
 * stop the start with the key's name, not throttle a production Tomcat with a default nobody chose.
 * Unknown keys are errors for the same reason ({@code minCPUs} silently meaning "no floor").
 */
public final class ConfigFile {

    private static final Set<String> TOP_KEYS = Set.of("cpus", "period", "enforce", "share", "minCpus",
            "metricsPort", "quotaPeriod", "weightPerCpu", "capacity", "applications");
    private static final Set<String> APPLICATION_KEYS = Set.of("name", "pidFile", "priority");
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m)");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");
    private static final Duration SHORTEST_PERIOD = Duration.ofMillis(100);
    /**
     * The kernel's 100 ms. A shorter one (20 ms) cuts how long a server at its quota stands still in each CFS period;
     * that it helps the experiment's sessions is not measured yet (docs/benchmarks.md section 6, "causes"), so the
     * default stays the kernel's.
     */
    public static final Duration DEFAULT_QUOTA_PERIOD = Duration.ofMillis(100);
    /**
     * An assigned CPU weighs as 64 busy threads against processes outside the manager's cgroups: enough that a
     * server gets its assignment before a many-threaded neighbour does (docs/benchmarks.md section 6, "causes").
     */
    public static final int DEFAULT_WEIGHT_PER_CPU = 64;

    private final List<Integer> hostCpus;

    /** @param hostCpus the CPUs this host has online; {@code cpus} must be among them */
    public ConfigFile(List<Integer> hostCpus) {
        this.hostCpus = List.copyOf(hostCpus);
    }

    public ManagerConfig read(Path file) throws ConfigException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("--config", "cannot read " + file + ": " + e.getMessage());
        }
        return parse(text, file.toAbsolutePath().getParent());
    }

    /** @param baseDirectory what a relative {@code pidFile} is relative to: the configuration's directory */
    public ManagerConfig parse(String yaml, Path baseDirectory) throws ConfigException {
        Object document;
        try {
            document = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
        } catch (YAMLException e) {
            throw new ConfigException("(file)", "not valid YAML: " + e.getMessage());
        }
        if (!(document instanceof Map<?, ?> top)) {
            throw new ConfigException("(file)", "expected a mapping with the keys " + sorted(TOP_KEYS));
        }
        Map<String, Object> root = keys(top, TOP_KEYS, "");

        List<Integer> cpus = cpus(required(root, "cpus"));
        Duration period = period(required(root, "period"));
        Enforcement enforcement = enforcement(required(root, "enforce"));
        boolean share = bool(root.getOrDefault("share", Boolean.TRUE), "share");
        double minCpus = number(root.getOrDefault("minCpus", 0.1), "minCpus");
        int metricsPort = port(required(root, "metricsPort"));
        Object weight = root.getOrDefault("weightPerCpu", DEFAULT_WEIGHT_PER_CPU);
        if (!(weight instanceof Integer w) || w < 1 || w > 256) {
            throw new ConfigException("weightPerCpu", "must be a whole number 1-256 (busy threads an assigned CPU weighs"
                    + " as; 1 = the kernel's default), was '" + weight + "'");
        }
        Duration quotaPeriod = quotaPeriod(root.getOrDefault("quotaPeriod", DEFAULT_QUOTA_PERIOD.toMillis() + "ms"));
        ShareableCpus capacity = capacity(root.getOrDefault("capacity", ShareableCpus.MEASURED.key()));
        List<Application> applications = applications(required(root, "applications"), baseDirectory);

        if (!(minCpus >= 0) || Double.isInfinite(minCpus)) {
            throw new ConfigException("minCpus", "must be a number of CPUs >= 0, was " + minCpus);
        }
        if (minCpus * applications.size() > cpus.size()) {
            throw new ConfigException("minCpus", minCpus + " for each of " + applications.size()
                    + " applications is more than the " + cpus.size() + " CPUs in cpus");
        }
        if (enforcement.affinity() && applications.size() > cpus.size()) {
            throw new ConfigException("enforce", enforcement.key() + " gives every application at least one whole CPU: "
                    + applications.size() + " applications do not fit on " + cpus.size() + " CPUs");
        }
        return new ManagerConfig(cpus, period, enforcement, share, minCpus, metricsPort, quotaPeriod, w, capacity,
                applications);
    }

    private static Map<String, Object> keys(Map<?, ?> map, Set<String> allowed, String prefix) throws ConfigException {
        Map<String, Object> result = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (!allowed.contains(key)) {
                throw new ConfigException(prefix + key, "unknown key; the keys are " + sorted(allowed));
            }
            result.put(key, entry.getValue());
        }
        return result;
    }

    private static Object required(Map<String, Object> map, String key) throws ConfigException {
        Object value = map.get(key);
        if (value == null) {
            throw new ConfigException(key, "missing");
        }
        return value;
    }

    private List<Integer> cpus(Object value) throws ConfigException {
        List<Integer> cpus;
        try {
            cpus = CpuList.parse(String.valueOf(value));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("cpus", e.getMessage() + " (write a list like \"0-1\" or \"0,2-3\")");
        }
        for (int cpu : cpus) {
            if (!hostCpus.contains(cpu)) {
                throw new ConfigException("cpus", "CPU " + cpu + " is not online here (online: "
                        + CpuList.format(hostCpus) + ")");
            }
        }
        return cpus;
    }

    private static Duration duration(Object value, String key) throws ConfigException {
        Matcher m = DURATION.matcher(String.valueOf(value).trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new ConfigException(key, "'" + value + "' is not a duration like 1s, 500ms or 1m");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
    }

    /** The kernel's range for a CFS period. */
    private static Duration quotaPeriod(Object value) throws ConfigException {
        Duration period = duration(value, "quotaPeriod");
        if (period.compareTo(Duration.ofMillis(1)) < 0 || period.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new ConfigException("quotaPeriod", "must be between 1ms and 1s (the kernel's range for a CFS period),"
                    + " was " + value);
        }
        return period;
    }

    private static Duration period(Object value) throws ConfigException {
        Duration period = duration(value, "period");
        if (period.compareTo(SHORTEST_PERIOD) < 0 || period.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new ConfigException("period", "must be between 100ms and 10m, was " + value);
        }
        return period;
    }

    private static Enforcement enforcement(Object value) throws ConfigException {
        try {
            return Enforcement.valueOf(String.valueOf(value).trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("enforce", "'" + value + "' is none of quota, affinity, both");
        }
    }

    private static ShareableCpus capacity(Object value) throws ConfigException {
        for (ShareableCpus capacity : ShareableCpus.values()) {
            if (capacity.key().equals(String.valueOf(value).trim())) {
                return capacity;
            }
        }
        throw new ConfigException("capacity", "'" + value + "' is none of measured (the cpus less what other processes"
                + " use on them), all");
    }

    private static boolean bool(Object value, String key) throws ConfigException {
        if (value instanceof Boolean b) {
            return b;
        }
        throw new ConfigException(key, "must be true or false, was '" + value + "'");
    }

    private static double number(Object value, String key) throws ConfigException {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        throw new ConfigException(key, "must be a number, was '" + value + "'");
    }

    private static int port(Object value) throws ConfigException {
        if (value instanceof Integer port && port >= 0 && port <= 65535) {
            return port;
        }
        throw new ConfigException("metricsPort", "must be a TCP port 0-65535 (0 = any free port), was '" + value + "'");
    }

    private static List<Application> applications(Object value, Path baseDirectory) throws ConfigException {
        if (!(value instanceof List<?> list) || list.isEmpty()) {
            throw new ConfigException("applications", "must be a non-empty list of {name, pidFile, priority}");
        }
        List<Application> applications = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String prefix = "applications[" + i + "].";
            if (!(list.get(i) instanceof Map<?, ?> entry)) {
                throw new ConfigException("applications[" + i + "]", "must be a mapping with name, pidFile, priority");
            }
            Map<String, Object> keys = keys(entry, APPLICATION_KEYS, prefix);
            Object name = keys.get("name");
            if (name == null || !NAME.matcher(String.valueOf(name)).matches()) {
                throw new ConfigException(prefix + "name", "must be 1-63 letters, digits, '.', '_' or '-' (it names a"
                        + " cgroup and a metrics label), was '" + name + "'");
            }
            if (!names.add(String.valueOf(name))) {
                throw new ConfigException(prefix + "name", "'" + name + "' is used twice");
            }
            Object pidFile = keys.get("pidFile");
            if (pidFile == null || String.valueOf(pidFile).isBlank()) {
                throw new ConfigException(prefix + "pidFile", "missing");
            }
            Object priority = keys.getOrDefault("priority", 1);
            if (!(priority instanceof Integer p) || p < 1 || p > 1000) {
                throw new ConfigException(prefix + "priority", "must be a whole number 1-1000, was '" + priority + "'");
            }
            Path path = baseDirectory == null ? Path.of(String.valueOf(pidFile))
                    : baseDirectory.resolve(String.valueOf(pidFile));
            applications.add(new Application(String.valueOf(name), path.normalize(), p));
        }
        return applications;
    }

    private static String sorted(Set<String> keys) {
        return keys.stream().sorted().toList().toString();
    }

    /** The CPUs online on this host, from {@code /sys/devices/system/cpu/online}. */
    public static List<Integer> onlineCpus(Path fsRoot) {
        try {
            return CpuList.parse(Files.readString(fsRoot.resolve("sys/devices/system/cpu/online")).trim());
        } catch (IOException | IllegalArgumentException e) {
            List<Integer> cpus = new ArrayList<>();
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                cpus.add(i);
            }
            return cpus;
        }
    }
}
