package io.tlsadmit.attack.scenario;

import io.tlsadmit.attack.measure.CpuTime;
import io.tlsadmit.attack.measure.SecondSampler;
import io.tlsadmit.attack.measure.Series;
import io.tlsadmit.attack.report.ScenarioReport;
import io.tlsadmit.attack.server.CounterSnapshot;
import io.tlsadmit.attack.server.GatedServer;
import io.tlsadmit.testing.PrometheusScrape;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One phase's measurement: the gate's counters at both ends, the server's CPU over the whole phase and
 * in 1-second buckets, the driver's own CPU, and with the adaptive budget its rate and guard factor.
 */
final class PhaseWindow {
    static final String RATE = "tlsadmit_budget_full_handshakes_per_second";
    static final String GUARD = "tlsadmit_budget_guard_factor";

    private final String phase;
    private final GatedServer server;
    private final CpuTime serverCpu;
    private final CounterSnapshot before;
    private final double cpuBefore;
    private final long startNanos = System.nanoTime();
    private final SecondSampler sampler;
    private Result result;

    record Result(String phase, double seconds, double serverCpuSeconds, SecondSampler sampler, Map<String, Double> counters) {
        double serverCpuPerSecond() {
            return serverCpuSeconds / seconds;
        }
    }

    PhaseWindow(String phase, GatedServer server, boolean adaptive) {
        this.phase = phase;
        this.server = server;
        this.serverCpu = server.cpu();
        this.before = server.counters();
        this.cpuBefore = serverCpu.seconds();
        this.sampler = new SecondSampler(serverCpu, adaptive ? () -> gauges(server) : Map::of);
    }

    private static Map<String, Double> gauges(GatedServer server) {
        PrometheusScrape scrape = server.scrape();
        Map<String, Double> values = new LinkedHashMap<>();
        for (String name : new String[] {RATE, GUARD}) {
            if (scrape.has(name)) {
                values.put(name, scrape.value(name));
            }
        }
        return values;
    }

    Result close() {
        if (result == null) {
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            sampler.close();
            double cpu = serverCpu.seconds() - cpuBefore;
            result = new Result(phase, seconds, cpu, sampler, server.counters().since(before));
        }
        return result;
    }

    /** The figures every phase reports: server CPU, the driver's, the adaptive gauges, the counters. */
    static void report(Result r, ScenarioReport report, double cpuTarget) {
        Series server = r.sampler().serverCpu();
        if (Double.isNaN(cpuTarget)) {
            report.add(r.phase(), "Tomcat CPU-s/s (median of 1 s buckets)", server.median(), "%.3f");
        } else {
            report.add(r.phase(), "Tomcat CPU-s/s (median of 1 s buckets)", server.median(), "%.3f",
                    String.format(Locale.ROOT, "≤ %.2f", cpuTarget), server.median() <= cpuTarget);
        }
        report.add(r.phase(), "Tomcat CPU-s/s (whole phase)", r.serverCpuPerSecond(), "%.3f");
        Series driver = r.sampler().driverCpu();
        report.add(r.phase(), "driver CPU-s/s (median)", driver.median(), "%.3f");
        long saturated = driver.countAtLeast(SecondSampler.DRIVER_SATURATED);
        if (saturated > 0) {
            report.note(String.format(Locale.ROOT, "%s: the driver's CPU was saturated (≥ %.0f %% of CPU 1) in %d of %d"
                            + " seconds: there the generator, not the server, was the limit", r.phase(),
                    100 * SecondSampler.DRIVER_SATURATED, saturated, driver.size()));
        }
        r.sampler().gauges().forEach((name, series) -> {
            report.add(r.phase(), name + " (median)", series.median(), "%.2f");
            report.add(r.phase(), name + " (min)", series.min(), "%.2f");
        });
        report.counters(r.phase(), r.counters());
    }
}
