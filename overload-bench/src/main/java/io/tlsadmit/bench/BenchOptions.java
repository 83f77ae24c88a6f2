package io.tlsadmit.bench;

import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

/** Command-line options of {@link OverloadBenchmark}; every one has a default that runs the full experiment. */
record BenchOptions(String server, String engine, List<String> modes, double[] multipliers, int stepSeconds, int warmupSeconds, int serverWarmupSeconds, String key,
                    String tls, int established, double thinkMillis, int workIterations, int timeoutMillis,
                    int maxConcurrentNewClients, double capacity, boolean cpuChange, int jdk, String clientGroups,
                    Path out, int rounds) {

    /** {@code --client-groups} value for the JDK's own choice of groups (jdk.tls.namedGroups left unset). */
    static final String JDK_GROUPS = "jdk";

    static final String USAGE = String.join("\n",
            "usage: overload-benchmark [options]",
            "  --server tomcat|netty         the server under test: Tomcat 11 (the valve) or the Netty example server",
            "                                (netty/target/tlsadmit-netty-server.jar)",
            "  --engine jdk|openssl          the Netty server's TLS engine (JSSE or BoringSSL); Tomcat runs JSSE",
            "  --modes off,static,adaptive   gate modes, each against its own fresh server",
            "  --rounds 1                    the whole sweep this many times, the modes' order reversed every other",
            "                                round; the summary reads goodput of own peak from each step's median",
            "  --multipliers 0.5,1,2,4,8     new clients per second, as multiples of the measured capacity",
            "  --step-seconds 60             measured seconds per step (after --warmup-seconds 10)",
            "  --server-warmup-seconds 30    closed-loop load on each fresh Tomcat before anything is measured (JIT)",
            "  --key rsa2048|rsa4096|ec      server certificate key",
            "  --tls 1.3|1.2                 protocol the server offers",
            "  --established 40              established clients (resume on every connection)",
            "  --think-ms 250                mean think time of an established client",
            "  --work 10                     request CPU work (SHA-256 blocks of 4 KiB) per request",
            "  --timeout-ms 10000            a client gives up after this long (the 2005 paper: 10 s)",
            "  --max-new-in-flight 1500      driver threads for new clients (arrivals beyond are counted as dropped)",
            "  --capacity N                  skip calibration: the server's new-client capacity per second",
            "  --cpu-change                  also run 1 -> 2 -> 1 CPUs mid-run per mode",
            "  --jdk 17|25                   JDK running the server",
            "  --client-groups x25519        the driver's TLS groups (jdk.tls.namedGroups), or jdk for the JDK's;",
            "                                default x25519, jdk with --key ec (JSSE picks an EC certificate only",
            "                                for a curve the client offers)",
            "  --out DIR                     results (default docs/results/<date>-overload, Netty:",
            "                                docs/results/<date>-overload-netty-<engine>)");

    /** {@code --help} or {@code -h} anywhere: print the usage and run nothing. */
    static boolean wantsHelp(String[] args) {
        return Arrays.stream(args).anyMatch(a -> a.equals("--help") || a.equals("-h"));
    }

    static BenchOptions parse(String[] args) {
        String server = "tomcat";
        String engine = null;
        List<String> modes = List.of("off", "static", "adaptive");
        double[] multipliers = {0.5, 1, 2, 4, 8};
        int stepSeconds = 60;
        int warmupSeconds = 10;
        int serverWarmupSeconds = 30;
        String key = "rsa2048";
        String tls = "1.3";
        int established = 40;
        double think = 250;
        int work = 10;
        int timeout = 10_000;
        int maxNew = 1500;
        double capacity = 0;
        boolean cpuChange = false;
        int jdk = 17;
        String clientGroups = null;
        Path out = null;
        int rounds = 1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--cpu-change")) {
                cpuChange = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String v = args[++i];
            switch (a) {
                case "--server" -> server = v;
                case "--engine" -> engine = v;
                case "--modes" -> modes = List.of(v.split(","));
                case "--multipliers" -> multipliers = Arrays.stream(v.split(",")).mapToDouble(Double::parseDouble).toArray();
                case "--step-seconds" -> stepSeconds = Integer.parseInt(v);
                case "--warmup-seconds" -> warmupSeconds = Integer.parseInt(v);
                case "--server-warmup-seconds" -> serverWarmupSeconds = Integer.parseInt(v);
                case "--key" -> key = v;
                case "--tls" -> tls = v;
                case "--established" -> established = Integer.parseInt(v);
                case "--think-ms" -> think = Double.parseDouble(v);
                case "--work" -> work = Integer.parseInt(v);
                case "--timeout-ms" -> timeout = Integer.parseInt(v);
                case "--max-new-in-flight" -> maxNew = Integer.parseInt(v);
                case "--capacity" -> capacity = Double.parseDouble(v);
                case "--jdk" -> jdk = Integer.parseInt(v);
                case "--client-groups" -> clientGroups = v;
                case "--out" -> out = Path.of(v);
                case "--rounds" -> rounds = Integer.parseInt(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (!List.of("tomcat", "netty").contains(server)) {
            throw new IllegalArgumentException("--server takes tomcat or netty; not " + server);
        }
        if (engine == null) {
            engine = "jdk";
        } else if (server.equals("tomcat")) {
            throw new IllegalArgumentException("--engine is the Netty server's (--server netty); Tomcat runs JSSE here");
        } else if (!List.of("jdk", "openssl").contains(engine)) {
            throw new IllegalArgumentException("--engine takes jdk or openssl; not " + engine);
        }
        if (out == null) {
            out = Path.of("docs/results/" + LocalDate.now() + "-overload"
                    + (server.equals("netty") ? "-netty-" + engine : ""));
        }
        for (String m : modes) {
            if (!List.of("off", "static", "adaptive").contains(m)) {
                throw new IllegalArgumentException("--modes takes off, static, adaptive; not " + m);
            }
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds takes a whole number of rounds, 1 or more; not " + rounds);
        }
        if (!List.of("rsa2048", "rsa4096", "ec").contains(key)) {
            throw new IllegalArgumentException("--key takes rsa2048, rsa4096 or ec; not " + key);
        }
        if (!tls.equals("1.3") && !tls.equals("1.2")) {
            throw new IllegalArgumentException("--tls takes 1.2 or 1.3; not " + tls);
        }
        // A JDK 17 client sends a key share for its first XDH and its first ECDHE group, x25519 and P-256, and every
        // new client pays for both key pairs, refused or not: the P-256 key pair was 30 % of the driver's CPU samples
        // at 8x the capacity, where the driver ran out of CPU (docs/benchmarks.md section 3, 2026-12-07). The server
        // answers with x25519 either way.
        if (clientGroups == null) {
            clientGroups = key.equals("ec") ? JDK_GROUPS : "x25519";
        } else if (clientGroups.isBlank()) {
            throw new IllegalArgumentException("--client-groups takes a list of TLS groups or jdk; it was empty");
        } else if (key.equals("ec") && !clientGroups.equals(JDK_GROUPS)
                && !List.of(clientGroups.split(",")).contains("secp256r1")) {
            throw new IllegalArgumentException("--client-groups must include secp256r1 with --key ec: JSSE serves an"
                    + " EC certificate only to a client that offers its curve; was " + clientGroups);
        }
        return new BenchOptions(server, engine, modes, multipliers, stepSeconds, warmupSeconds, serverWarmupSeconds, key, tls, established, think, work,
                timeout, maxNew, capacity, cpuChange, jdk, clientGroups, out, rounds);
    }
}
