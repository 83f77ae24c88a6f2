package io.tlsadmit.attack.scenario;

import io.tlsadmit.admission.cpu.CpuTicks;
import io.tlsadmit.attack.client.HelloFlood;
import io.tlsadmit.attack.hello.ForgedHello;
import io.tlsadmit.attack.report.ScenarioReport;
import io.tlsadmit.attack.server.CounterSnapshot;
import io.tlsadmit.attack.server.GatedServer;
import io.tlsadmit.attack.server.ScenarioAttributes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What refusing costs: honest new clients (a TLS 1.3 ClientHello offering no resumption, then an orderly close, as a
 * browser's) arriving far beyond a budget that has no tokens left, so the gate refuses nearly all of them, ending each
 * as {@code refuseAction} says. Under overload this is what the server does thousands of times a second, and its CPU
 * comes out of what the admitted clients get (docs/benchmarks.md, section 4: at 8× the knee the RUBiS server refused
 * about 2,000 connections a second).
 *
 * <p>Per refusal: Tomcat's CPU; CPU 0's, which adds the kernel's work there that no process is charged for (softirq
 * time; on loopback that includes the client's side of what the server sends); and the driver's CPU per connection.
 * Each measured over a flood phase less an idle phase of the same Tomcat, after a warm-up flood that is not measured
 * (the JIT). Each {@code refuseAction} on a fresh Tomcat, alternated {@code rounds} times, so a machine that drifts
 * shows as spread between rounds rather than as a difference between the actions.
 */
public final class NewClientFloodScenario implements Scenario {
    private static final List<String> ACTIONS = List.of("close", "reset");
    private static final double WARM_SECONDS = 15;
    private static final double IDLE_SECONDS = 5;
    private static final long ANSWER_CAP_MILLIS = 2_000;
    private static final String SOURCE = "127.0.0.4";

    @Override
    public String name() {
        return "new-client-flood";
    }

    @Override
    public ScenarioReport run(Bench bench) throws Exception {
        ScenarioReport report = bench.report(name(), ScenarioAttributes.budget("static", "1", "1").describe()
                + " refuseAction=close|reset; " + Math.round(bench.floodRate()) + " new clients/s");
        if (bench.budget().equals("adaptive")) {
            report.note("the budget is static here whatever --budget says: the adaptive one would admit a share of the"
                    + " flood, and the figure wanted is the cost of a refusal");
        }
        for (int round = 1; round <= bench.floodRounds(); round++) {
            for (String action : ACTIONS) {
                measure(bench, report, action, round);
            }
        }
        report.note("µs per refusal = (flood phase − idle phase) CPU-seconds ÷ refusals counted by the gate"
                + " (tlsadmit_connections_total, verdict NEW, refused); CPU 0 = busy ticks of /proc/stat (USER_HZ), so"
                + " it includes Tomcat, the kernel's softirq work on that CPU and anything else scheduled there");
        return report;
    }

    private void measure(Bench bench, ScenarioReport report, String action, int round) throws Exception {
        ScenarioAttributes settings = ScenarioAttributes.budget("static", "1", "1").attribute("refuseAction", action);
        String phase = action + " #" + round;
        List<InetAddress> sources = List.of(InetAddress.getByName(SOURCE));
        Random random = new Random(round);
        try (GatedServer server = bench.start(name(), settings)) {
            Bench.log("%s: %s, warm-up flood %.0f s, idle %.0f s, flood %.0f s at %.0f/s", name(), phase, WARM_SECONDS,
                    IDLE_SECONDS, bench.seconds(), bench.floodRate());
            try (HelloFlood warm = flood(server, sources, bench.floodRate(), WARM_SECONDS, random)) {
                Thread.sleep((long) (WARM_SECONDS * 1000));
            }
            Thread.sleep(1000); // the warm-up's last connections end
            Sample idle = Sample.of(server, IDLE_SECONDS);
            PhaseWindow window = new PhaseWindow(phase, server, false);
            CpuTicks cpu0Before = cpu0Ticks();
            HelloFlood.Counts counts;
            try (HelloFlood flood = flood(server, sources, bench.floodRate(), bench.seconds(), random)) {
                Thread.sleep((long) (bench.seconds() * 1000));
                counts = flood.counts();
            }
            PhaseWindow.Result r = window.close();
            double cpu0 = cpu0Ticks().busyCpusSince(cpu0Before, 1);
            double refused = CounterSnapshot.sum(r.counters(), "tlsadmit_connections_total", "verdict=\"NEW\"",
                    "decision=\"refused\"");
            PhaseWindow.report(r, report, Double.NaN);
            report.add(phase, "hellos sent/s (achieved)", counts.hellosSent() / r.seconds(), "%.0f",
                    String.format(Locale.ROOT, "%.0f offered", bench.floodRate()),
                    counts.hellosSent() / r.seconds() >= 0.95 * bench.floodRate());
            report.add(phase, "refused/s", refused / r.seconds(), "%.0f");
            counts.ends().forEach((reason, count) -> report.add(phase, "connections ended: " + reason, count, "%.0f"));
            report.add(phase, "Tomcat CPU-s/s idle", idle.tomcatCpus(), "%.3f");
            report.add(phase, "CPU 0 busy-s/s idle", idle.cpu0(), "%.3f");
            report.add(phase, "CPU 0 busy-s/s flood", cpu0, "%.3f");
            report.add(phase, "Tomcat µs per refusal", 1e6 * (r.serverCpuPerSecond() - idle.tomcatCpus()) * r.seconds()
                    / refused, "%.1f");
            report.add(phase, "CPU 0 µs per refusal", 1e6 * (cpu0 - idle.cpu0()) * r.seconds() / refused, "%.1f");
            report.add(phase, "driver µs per connection", 1e6 * r.sampler().driverCpu().median()
                    / bench.floodRate(), "%.1f");
        }
    }

    private static HelloFlood flood(GatedServer server, List<InetAddress> sources, double rate, double seconds,
                                    Random random) throws IOException {
        return new HelloFlood(server.address(), sources, rate, seconds, () -> ForgedHello.tls13New(random),
                ANSWER_CAP_MILLIS, HelloFlood.Ending.ORDERLY);
    }

    private static CpuTicks cpu0Ticks() {
        try {
            return CpuTicks.read(Path.of("/"), List.of(0));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Tomcat's and CPU 0's busy CPU-seconds per second while nothing arrives. */
    private record Sample(double tomcatCpus, double cpu0) {
        static Sample of(GatedServer server, double seconds) throws InterruptedException {
            CpuTicks before = cpu0Ticks();
            double tomcatBefore = server.cpu().seconds();
            long start = System.nanoTime();
            Thread.sleep((long) (seconds * 1000));
            double elapsed = (System.nanoTime() - start) / 1e9;
            return new Sample((server.cpu().seconds() - tomcatBefore) / elapsed, cpu0Ticks().busyCpusSince(before, 1));
        }
    }
}
