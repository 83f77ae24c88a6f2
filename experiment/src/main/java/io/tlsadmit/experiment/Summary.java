package io.tlsadmit.experiment;

import io.tlsadmit.experiment.flash.ServerStart;
import io.tlsadmit.experiment.step.StepResult;
import io.tlsadmit.testing.LoadGeneratorLimit;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * {@code summary.md}: the "Overload experiment" section for docs/benchmarks.md — how the run was made (command,
 * date, machine, load average), the headline table, and the figures' files.
 */
final class Summary {

    private Summary() {
    }

    record Run(ExperimentOptions options, double knee, Instant started, Instant finished, double loadAtStart,
            double loadAtEnd, String database, String tomcatVersion, String outDir) {
    }

    static String markdown(Run run, List<StepResult> all, List<StepResult> sweep, String table,
            String cpuChangeTable) {
        ExperimentOptions o = run.options();
        double minLoad = all.stream().mapToDouble(StepResult::loadAverage).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
        double maxLoad = all.stream().mapToDouble(StepResult::loadAverage).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
        double maxDriverCpu = all.stream().mapToDouble(StepResult::driverCpuPercent).max().orElse(Double.NaN);
        double maxDriverCpusBusy = all.stream().filter(Summary::driverHasOwnCpu)
                .mapToDouble(StepResult::driverCpusBusyPercent).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
        String staticLimit = limitOf(sweep, Mode.STATIC);
        String haproxyLimits = haproxyLimits(sweep);
        StringBuilder out = new StringBuilder();
        out.append("## Overload experiment").append(o.quick() ? " (quick demo run)" : "").append("\n\n");
        out.append(String.format(Locale.ROOT, """
                Run %s → %s UTC on this machine (2 cores shared with other engineers' builds, 24 GiB). 1-minute \
                load average %.1f at the start, %.1f–%.1f at the ends of the steps, %.1f at the end; it counts \
                runnable threads machine-wide, an overloaded Tomcat's own workers included, so it is high at the \
                overload steps by itself. The figures are noisy: CPU 0 was not Tomcat's alone. Command:

                ```
                bin/experiment %s
                ```

                Tomcat %s (JDK %s) pinned to CPU 0 with `taskset -a -cp 0` (in a workload on 2 server CPUs: CPUs 0-1, \
                the second shared with Gatling), Gatling 3.15.1 in the experiment's JVM on CPU 1; %s, TLS %s. RUBiS %s mix, open model (Poisson arrivals of new users), think time scaled \
                by %s (mean %.1f s) and Tomcat's keep-alive timeout with it (%d ms: users reconnect and resume, as in the \
                study), at most %d pages per session, 10 s request timeout, %d connection(s) per user, users from %s; %s. MariaDB itself is not \
                pinned (it is shared with other tests).

                Each step: users arrive for %d s; the first %d s are left out, the figures are per-second means over \
                the remaining %d s; then %d s of drain. Knee (stock Tomcat's, %s): **%.1f new users/s**.%s%s

                """, run.started(), run.finished(), run.loadAtStart(), minLoad, maxLoad, run.loadAtEnd(),
                String.join(" ", commandLine(o)), run.tomcatVersion(), Runtime.version().feature(), o.key(), o.tls(), o.mix(),
                o.thinkTimeScale(), 7 * o.thinkTimeScale(),
                io.tlsadmit.experiment.server.KeepAliveTimeout.millis(o.thinkTimeScale()), o.pages(),
                o.connectionsPerUser(), o.sourceAddresses() > 0 ? o.sourceAddresses() + " loopback addresses"
                        : "127.0.0.1 only (session grace = connections per user)", run.database(), o.stepSeconds(),
                o.warmupSeconds(), o.stepSeconds() - o.warmupSeconds(), o.drainSeconds(), kneeSource(o), run.knee(),
                staticLimit.isEmpty() ? "" : " Static budget: " + staticLimit + " new full handshakes/s (the knee).",
                haproxyLimits));
        out.append("Throughput (replies/s: pages and images), completed sessions as a fraction of the mode's own peak;"
                + " p99 of page response time in ms:\n\n");
        out.append(table).append('\n');
        out.append(String.format(Locale.ROOT, "Gatling, the load generator, stayed at or below %.0f %% of its core (CPU"
                + " 1) in every step (`driver_cpu_pct` in `steps.csv`)", maxDriverCpu));
        out.append(Double.isNaN(maxDriverCpusBusy) ? "." : String.format(Locale.ROOT, "; that core, which the database"
                + " shares, was at most %.0f %% busy in the steps on one server CPU (`driver_cpus_busy_pct`).",
                maxDriverCpusBusy));
        List<String> generatorBound = all.stream().filter(Summary::limitedByLoadGenerator)
                .map(s -> s.mode().label() + " at " + number(s.usersPerSec()) + " users/s").toList();
        out.append(generatorBound.isEmpty() ? "" : " Limited by the load generator (Gatling ≥ "
                + number(LoadGeneratorLimit.SATURATED_PERCENT) + " % of its core, or its CPU ≥ "
                + number(LoadGeneratorLimit.SATURATED_PERCENT) + " % busy with the database beside it), so not a"
                + " measure of the server: " + String.join(", ", generatorBound) + ".").append("\n\n");
        // the CPU change's sections (taskset, quota), each its introduction and table
        out.append(cpuChangeTable);
        // the summary sits beside them: a path relative to the checkout was wrong for a run written elsewhere
        out.append("Charts (in this directory): `throughput.png`, `response-time.png`,"
                + " `response-time-p99.png`, `completed-sessions.png`, `refused-connections.png`, `resumed-share.png`,"
                + " `client-timeouts.png`")
                .append(o.flashCrowd() ? ", `flash-crowd.png` (and `flash-crowd.csv`)" : "")
                .append(o.cpuChange() ? o.cpuChangeKinds().stream().map(k -> ", `" + k.files() + ".png` (and `" + k.files()
                        + ".csv`)").collect(Collectors.joining()) : "")
                .append("; every step in `steps.csv`, each Gatling run's own figures under `runs/`.\n");
        return out.toString();
    }

    /** How the run's knee was found, as the options say (experiment/README.md, step 4). */
    static String kneeSource(ExperimentOptions o) {
        String factor = String.format(java.util.Locale.ROOT, "%.0f×", io.tlsadmit.experiment.step.KneeSearch.LATENCY_FACTOR);
        if (o.knee() > 0) {
            return "given with `--knee`";
        }
        if (!o.rates().isEmpty()) {
            return "the swept rate of its highest throughput among those with a page p99 within " + factor
                    + " the lowest rate's";
        }
        return "searched: doubling, then bisected to " + o.kneeResolution() + ", a rate holding while its page p99"
                + " stayed within " + factor + " the start rate's";
    }

    /** Each HAProxy mode's rate, as tuned (or given), e.g. " HAProxy: `haproxy` `maxsslrate` 120, …". */
    private static String haproxyLimits(List<StepResult> sweep) {
        List<String> limits = new java.util.ArrayList<>();
        for (Mode mode : Mode.values()) {
            String limit = mode.haproxy() ? limitOf(sweep, mode) : "";
            if (!limit.isEmpty()) {
                limits.add("`" + mode.label() + "` `" + mode.rateSetting() + "` " + limit);
            }
        }
        return limits.isEmpty() ? "" : " HAProxy: " + String.join(", ", limits) + " (each the best throughput at 4×"
                + " the knee among 0.5, 1, 1.5, 2 × the knee, then 3 and 4 × while the highest wins, unless given; see"
                + " `steps.csv`, the phase named after the setting).";
    }

    private static String limitOf(List<StepResult> sweep, Mode mode) {
        return sweep.stream().filter(s -> s.mode() == mode && !Double.isNaN(s.limit())).findFirst()
                .map(s -> String.format(Locale.ROOT, "%.0f", s.limit())).orElse("");
    }

    /** The options as they were in effect, so the command can be run again. */
    static List<String> commandLine(ExperimentOptions o) {
        if (o.quick()) {
            return List.of("--quick");
        }
        List<String> args = new java.util.ArrayList<>(List.of(
                "--modes", o.modes().stream().map(Mode::label).collect(Collectors.joining(",")),
                o.rates().isEmpty() ? "--multipliers" : "--rates",
                (o.rates().isEmpty() ? o.multipliers() : o.rates()).stream().map(Summary::number)
                        .collect(Collectors.joining(","))));
        if (o.knee() > 0) {
            args.addAll(List.of("--knee", number(o.knee())));
        } else if (o.rates().isEmpty()) {
            args.addAll(List.of("--start-rate", number(o.startRate()), "--knee-resolution", o.kneeResolution().toString()));
        }
        args.addAll(List.of("--step-seconds", Integer.toString(o.stepSeconds()),
                "--warmup-seconds", Integer.toString(o.warmupSeconds()),
                "--db", o.database(), "--scale", number(o.scale()), "--key", o.key(), "--tls", o.tls(),
                "--mix", o.mix(), "--think-scale", number(o.thinkTimeScale())));
        if (!o.serverCpus().equals(List.of(1))) {
            args.addAll(List.of("--server-cpus", o.serverCpus().stream().map(String::valueOf)
                    .collect(Collectors.joining(","))));
        }
        if (o.connectionsPerUser() != 1) {
            args.addAll(List.of("--connections-per-user", Integer.toString(o.connectionsPerUser())));
        }
        if (o.sourceAddresses() != ExperimentOptions.DEFAULT_SOURCE_ADDRESSES) {
            args.addAll(List.of("--source-addresses", Integer.toString(o.sourceAddresses())));
        }
        for (Mode mode : o.modes()) {
            if (mode.haproxy() && o.haproxyRate(mode) > 0) {
                args.addAll(List.of("--" + mode.rateSetting(), Integer.toString(o.haproxyRate(mode))));
            }
        }
        args.add(o.flashCrowd() ? "--flash-crowd" : "--no-flash-crowd");
        if (o.flashCrowd() && o.flashCrowdStart() != ServerStart.COLD) {
            args.addAll(List.of("--flash-crowd-start", o.flashCrowdStart().label()));
        }
        if (o.cpuChange()) {
            args.addAll(List.of("--cpu-change-seconds", Integer.toString(o.cpuChangeSeconds()), "--cpu-change-kind",
                    o.cpuChangeKinds().size() > 1 ? "both" : o.cpuChangeKinds().get(0).label()));
        } else {
            args.add("--no-cpu-change");
        }
        if (o.resume()) {
            args.add("--resume");
        }
        return args;
    }

    /**
     * Whether the load generator, not the server, may have set a step's figures: Gatling at
     * {@link LoadGeneratorLimit}'s share of its core, or, where Gatling has a CPU of its own (one server CPU), that CPU
     * as full, the database beside it. Why the CPU as well: on 2026-12-08 (docs/benchmarks.md section 4) an adaptive
     * step at 8× the knee with Gatling at 81 % of its core had that CPU 96 % busy; the database got 0.05-0.09 CPU for
     * seconds, page p99 rose to 6.1 s and 61 users timed out within one second, while the same step in two other
     * rounds (that CPU 78-88 % busy) kept 0.93-1.00 of its peak.
     */
    static boolean limitedByLoadGenerator(StepResult s) {
        return LoadGeneratorLimit.reached(s.driverCpuPercent())
                || driverHasOwnCpu(s) && LoadGeneratorLimit.reached(s.driverCpusBusyPercent());
    }

    /** With two server CPUs the load generator's CPU is also the server's: then its busy share is not Gatling's. */
    private static boolean driverHasOwnCpu(StepResult s) {
        return s.serverCpus() == 1;
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
