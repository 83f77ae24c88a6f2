package io.tlsadmit.experiment;

import io.tlsadmit.experiment.flash.ServerStart;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The experiment's command line. {@code --quick} is the README demo: stock against the adaptive gate, a few
 * short steps each; every other option overrides what it implies.
 */
public record ExperimentOptions(
        List<Mode> modes,
        List<Double> multipliers,
        List<Double> rates,
        double knee,
        double startRate,
        io.tlsadmit.experiment.step.KneeSearch.Resolution kneeResolution,
        int stepSeconds,
        int warmupSeconds,
        int drainSeconds,
        int serverWarmupSeconds,
        String database,
        double scale,
        String key,
        List<String> mixes,
        List<String> tlsVersions,
        double thinkTimeScale,
        int pages,
        boolean cpuChange,
        int cpuChangeSeconds,
        List<CpuChangeKind> cpuChangeKinds,
        List<Integer> serverCpus,
        int maxSslRate,
        int rejectRate,
        int newHelloRate,
        boolean flashCrowd,
        int flashCrowdSeconds,
        ServerStart flashCrowdStart,
        int connectionsPerUser,
        int sourceAddresses,
        java.util.Map<String, String> gateAttributes,
        Path out,
        boolean resume,
        boolean quick) {

    /** Loopback addresses the users connect from by default (round robin): 32 /24s, see {@code --source-addresses}. */
    public static final int DEFAULT_SOURCE_ADDRESSES = 32 * 254;

    public static final String USAGE = """
            usage: bin/experiment [options]
              --quick                 the demo: stock vs adaptive, 6 steps of 10 s (a minute of load a mode) at
                                      10,20,40,80,160,320 new users/s, RSA-4096
              --modes LIST            stock,static,adaptive,haproxy,haproxy-reject,haproxy-hello (default: all these);
                                      adaptive-nice (fullHandshakeNice=19), adaptive-measured
                                      (cpuCapacity=measured), adaptive-allocation (cpuCapacity=allocation),
                                      adaptive-reset (refuseAction=reset), adaptive-runqueue
                                      (runQueueTarget=3): adaptive with one setting, beside adaptive
              --multipliers LIST      new users/s as multiples of the knee (default 0.5,1,2,4,8)
              --rates LIST            new users/s as absolute values; skips the knee search
              --knee N                the knee in new users/s; skips the knee search
              --start-rate N          the knee search starts here and doubles (default 4)
              --knee-resolution R     after doubling brackets the knee, bisect until the bracket is at most R
                                      wide: new users/s (8) or a share of its lower end (10%, the default);
                                      off: the knee is the best doubling
              --step-seconds N        users arrive for this long per step (default 60)
              --warmup-seconds N      the start of a step left out of its figures (default 20)
              --drain-seconds N       after arrivals stop, users still inside may finish (default 5)
              --server-warmup-seconds N  a fresh server first serves 5 users/s this long, unrecorded, so
                                      that its JIT has compiled the hot paths (default 15, quick 8)
              --db mariadb|h2         RUBiS database (default mariadb: rubis_experiment on 127.0.0.1:3306)
              --scale S               RUBiS data set scale, loaded once (default 0.01)
              --key rsa2048|rsa4096|ec  server certificate key (default rsa2048, quick rsa4096)
              --tls LIST              TLS versions, 1.3 and/or 1.2, each a run of its own (default 1.3)
              --mix LIST              RUBiS mixes, browsing and/or bidding, each a run of its own (default browsing)
              --server-cpus LIST      the server's CPUs, 1 (CPU 0) and/or 2 (CPUs 0-1: the second is also
                                      Gatling's), each a run of its own with its own knee (default 1)
              --think-scale X         multiplies RUBiS think times (mean 7 s) (default 0.1)
              --pages N               pages per user session at most (default 20)
              --cpu-change / --no-cpu-change   the CPU change at 2x the knee, of the kinds below (default on,
                                      off with --quick)
              --cpu-change-seconds N  length of each CPU phase (default 30)
              --cpu-change-kind K     taskset: CPUs 1 -> 2 -> 1; quota: a cgroup CPU quota 1 -> 0.5 -> 1 on one
                                      CPU (needs a writable cgroup cpu controller: root); both (default)
              --maxsslrate N          HAProxy's maxsslrate; skips its sweep
              --reject-rate N         haproxy-reject's new connections admitted per second; skips its sweep
              --new-hello-rate N      haproxy-hello's hellos without a ticket admitted per second; skips its sweep
              --flash-crowd / --no-flash-crowd  each mode on a fresh server, 5 s idle, then 4x the knee at once
                                      (default on, off with --quick)
              --flash-crowd-seconds N the flash crowd's window (default 30)
              --flash-crowd-start S   cold: the fresh server meets the crowd with nothing compiled (default);
                                      warm: it first gets a sweep step's warm-up (--server-warmup-seconds at
                                      5 users/s from Gatling); warm-up-requests: the gated connector requests
                                      RUBiS pages itself at start for --server-warmup-seconds (warmUpRequests)
              --connections-per-user N  1: a user's images load in turn on its one connection (default); >1:
                                      browser-like, up to N parallel connections (rubis.connectionsPerUser)
              --source-addresses N    users connect from N loopback addresses 127.0.x.y, one per user, round
                                      robin (default 8128); 0: all from 127.0.0.1, and the gate's session grace
                                      is then set to --connections-per-user
              --gate-attribute N=V    a connector attribute of every gated mode's server, over the mode's own
                                      (repeatable), e.g. runQueueTarget=5 with --modes adaptive-runqueue
              --out DIR               results (default docs/results/<date>[-quick])
              --resume                keep the steps already in DIR/steps.csv: the knee search and modes swept
                                      there are not run again (after an interrupted run)
              --help                  this text
            """;

    private static final List<String> VALUED = List.of("--modes", "--multipliers", "--rates", "--knee",
            "--start-rate", "--knee-resolution", "--step-seconds", "--warmup-seconds", "--drain-seconds", "--server-warmup-seconds", "--db", "--scale", "--key",
            "--tls", "--mix", "--server-cpus", "--think-scale", "--pages", "--cpu-change-seconds", "--cpu-change-kind", "--maxsslrate", "--out",
            "--reject-rate", "--new-hello-rate",
            "--flash-crowd-seconds", "--flash-crowd-start", "--connections-per-user", "--source-addresses",
            "--gate-attribute");

    public static ExperimentOptions parse(String[] args) {
        boolean quick = List.of(args).contains("--quick");
        List<Mode> modes = quick ? List.of(Mode.STOCK, Mode.ADAPTIVE)
                : Mode.defaults();
        List<Double> multipliers = List.of(0.5, 1.0, 2.0, 4.0, 8.0);
        List<Double> rates = quick ? List.of(10.0, 20.0, 40.0, 80.0, 160.0, 320.0) : List.of();
        double knee = 0;
        double startRate = 4;
        io.tlsadmit.experiment.step.KneeSearch.Resolution kneeResolution =
                io.tlsadmit.experiment.step.KneeSearch.Resolution.DEFAULT;
        int stepSeconds = quick ? 10 : 60;
        int warmupSeconds = quick ? 3 : 20;
        int drainSeconds = quick ? 3 : 5;
        int serverWarmupSeconds = quick ? 8 : 15;
        String database = "mariadb";
        double scale = 0.01;
        // the demo uses RSA-4096: with RSA-2048 RUBiS on one server CPU here peaks beyond 160 new users/s, and one
        // Gatling core cannot offer several times that; RSA-4096 brings the knee within its reach
        String key = quick ? "rsa4096" : "rsa2048";
        List<String> tlsVersions = List.of("1.3");
        List<String> mixes = List.of("browsing");
        List<Integer> serverCpus = List.of(1);
        boolean flashCrowd = !quick;
        int flashCrowdSeconds = 30;
        ServerStart flashCrowdStart = ServerStart.COLD;
        int connectionsPerUser = 1;
        int sourceAddresses = DEFAULT_SOURCE_ADDRESSES;
        double thinkTimeScale = 0.1;
        int pages = 20;
        boolean cpuChange = !quick;
        int cpuChangeSeconds = 30;
        List<CpuChangeKind> cpuChangeKinds = List.of(CpuChangeKind.TASKSET, CpuChangeKind.QUOTA);
        int maxSslRate = 0;
        int rejectRate = 0;
        int newHelloRate = 0;
        Path out = null;
        boolean resume = false;
        java.util.Map<String, String> gateAttributes = new java.util.LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--quick" -> { }
                case "--help", "-h" -> throw new HelpRequested();
                case "--cpu-change" -> cpuChange = true;
                case "--no-cpu-change" -> cpuChange = false;
                case "--flash-crowd" -> flashCrowd = true;
                case "--no-flash-crowd" -> flashCrowd = false;
                case "--resume" -> resume = true;
                default -> {
                    if (!VALUED.contains(option)) {
                        throw new IllegalArgumentException(option.startsWith("--")
                                ? "unknown option '" + option + "'" : "unexpected argument '" + option + "'");
                    }
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(option + " needs a value");
                    }
                    String value = args[++i];
                    switch (option) {
                        case "--modes" -> modes = modes(value);
                        case "--multipliers" -> multipliers = positives(option, value);
                        case "--rates" -> rates = positives(option, value);
                        case "--knee" -> knee = positive(option, value);
                        case "--start-rate" -> startRate = positive(option, value);
                        case "--knee-resolution" ->
                                kneeResolution = io.tlsadmit.experiment.step.KneeSearch.Resolution.parse(value);
                        case "--step-seconds" -> stepSeconds = whole(option, value, 2);
                        case "--warmup-seconds" -> warmupSeconds = whole(option, value, 0);
                        case "--drain-seconds" -> drainSeconds = whole(option, value, 0);
                        case "--server-warmup-seconds" -> serverWarmupSeconds = whole(option, value, 0);
                        case "--db" -> database = oneOf(option, value, "mariadb", "h2");
                        case "--scale" -> scale = positive(option, value);
                        case "--key" -> key = oneOf(option, value, "rsa2048", "rsa4096", "ec");
                        case "--tls" -> tlsVersions = oneOrMoreOf(option, value, "1.3", "1.2");
                        case "--mix" -> mixes = oneOrMoreOf(option, value, "browsing", "bidding");
                        case "--server-cpus" -> serverCpus = oneOrMoreOf(option, value, "1", "2").stream()
                                .map(Integer::valueOf).toList();
                        case "--flash-crowd-seconds" -> flashCrowdSeconds = whole(option, value, 12);
                        case "--flash-crowd-start" ->
                                flashCrowdStart = ServerStart.ofLabel(oneOf(option, value, ServerStart.labels()));
                        case "--connections-per-user" -> connectionsPerUser = whole(option, value, 1);
                        case "--source-addresses" -> sourceAddresses = whole(option, value, 0);
                        case "--think-scale" -> thinkTimeScale = positive(option, value);
                        case "--pages" -> pages = whole(option, value, 1);
                        case "--cpu-change-seconds" -> cpuChangeSeconds = whole(option, value, 2);
                        case "--cpu-change-kind" -> cpuChangeKinds = CpuChangeKind.parse(value);
                        case "--maxsslrate" -> maxSslRate = whole(option, value, 1);
                        case "--reject-rate" -> rejectRate = whole(option, value, 1);
                        case "--new-hello-rate" -> newHelloRate = whole(option, value, 1);
                        case "--out" -> out = Path.of(value);
                        case "--gate-attribute" -> {
                            int equals = value.indexOf('=');
                            if (equals <= 0 || !value.substring(0, equals).matches("[A-Za-z][A-Za-z0-9]*")) {
                                throw new IllegalArgumentException(
                                        "--gate-attribute must be NAME=VALUE with a connector attribute's name, got '"
                                                + value + "'");
                            }
                            gateAttributes.put(value.substring(0, equals), value.substring(equals + 1));
                        }
                        default -> throw new AssertionError(option);
                    }
                }
            }
        }
        if (warmupSeconds >= stepSeconds) {
            throw new IllegalArgumentException("--warmup-seconds (" + warmupSeconds
                    + ") must be shorter than --step-seconds (" + stepSeconds + ")");
        }
        if (connectionsPerUser > 64) {
            throw new IllegalArgumentException("--connections-per-user must be at most 64, got " + connectionsPerUser);
        }
        if (sourceAddresses > 255 * 254) {
            throw new IllegalArgumentException("--source-addresses must be at most " + 255 * 254 + ", got "
                    + sourceAddresses);
        }
        if (modes.contains(Mode.STATIC) && !modes.contains(Mode.STOCK) && knee == 0) {
            throw new IllegalArgumentException("mode static is tuned at the knee of the stock sweep: add stock to"
                    + " --modes or give --knee");
        }
        if (out == null) {
            out = Path.of("docs", "results", LocalDate.now(ZoneOffset.UTC) + (quick ? "-quick" : ""));
        }
        return new ExperimentOptions(List.copyOf(modes), multipliers, rates, knee, startRate, kneeResolution, stepSeconds,
                warmupSeconds, drainSeconds, serverWarmupSeconds, database, scale, key, mixes, tlsVersions, thinkTimeScale,
                pages, cpuChange, cpuChangeSeconds, cpuChangeKinds, serverCpus, maxSslRate, rejectRate, newHelloRate, flashCrowd, flashCrowdSeconds, flashCrowdStart,
                connectionsPerUser, sourceAddresses, java.util.Map.copyOf(gateAttributes), out, resume, quick);
    }

    /** A HAProxy mode's rate as given ({@code --maxsslrate}, {@code --reject-rate}, {@code --new-hello-rate}), 0 if to be swept. */
    public int haproxyRate(Mode mode) {
        return switch (mode) {
            case HAPROXY -> maxSslRate;
            case HAPROXY_REJECT -> rejectRate;
            case HAPROXY_HELLO -> newHelloRate;
            default -> 0;
        };
    }

    /** The TLS versions as given to {@code --tls}, e.g. {@code 1.3,1.2}. */
    public String tls() {
        return String.join(",", tlsVersions);
    }

    /** The mixes as given to {@code --mix}. */
    public String mix() {
        return String.join(",", mixes);
    }

    /** Every mix with every TLS version, in the order given: each is a knee search, a sweep and a flash crowd. */
    public List<Workload> workloads() {
        List<Workload> workloads = new ArrayList<>();
        for (String mix : mixes) {
            for (String version : tlsVersions) {
                for (int cpus : serverCpus) {
                    workloads.add(new Workload(mix, version, cpus));
                }
            }
        }
        return workloads;
    }

    /** {@code --help}: print the usage and stop, without an error. */
    public static final class HelpRequested extends RuntimeException {
        HelpRequested() {
            super("help", null, false, false);
        }
    }

    private static List<Mode> modes(String value) {
        List<Mode> modes = new ArrayList<>();
        for (String part : value.split(",")) {
            Mode mode = Mode.parse(part);
            if (!modes.contains(mode)) {
                modes.add(mode);
            }
        }
        // the stock sweep comes first: it gives the knee the others are judged (and static is tuned) at
        modes.sort(null);
        return modes;
    }

    private static List<String> oneOrMoreOf(String option, String value, String... allowed) {
        List<String> chosen = new ArrayList<>();
        for (String part : value.split(",")) {
            String one = oneOf(option, part, allowed);
            if (!chosen.contains(one)) {
                chosen.add(one);
            }
        }
        return List.copyOf(chosen);
    }

    private static List<Double> positives(String option, String value) {
        List<Double> numbers = new ArrayList<>();
        for (String part : value.split(",")) {
            numbers.add(positive(option, part));
        }
        return List.copyOf(numbers);
    }

    private static double positive(String option, String value) {
        try {
            double number = Double.parseDouble(value.strip());
            if (number > 0 && Double.isFinite(number)) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below, with the option's name
        }
        throw new IllegalArgumentException(option + " must be a positive number, got '" + value + "'");
    }

    private static int whole(String option, String value, int min) {
        try {
            int number = Integer.parseInt(value.strip());
            if (number >= min) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below, with the option's name
        }
        throw new IllegalArgumentException(option + " must be a whole number >= " + min + ", got '" + value + "'");
    }

    private static String oneOf(String option, String value, String... allowed) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        for (String candidate : allowed) {
            if (candidate.equals(v)) {
                return v;
            }
        }
        throw new IllegalArgumentException(option + " must be one of " + String.join(", ", allowed) + ", got '"
                + value + "'");
    }
}
