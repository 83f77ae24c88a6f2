package io.tlsadmit.admission.control;

import io.tlsadmit.admission.SimulatedClock;
import io.tlsadmit.admission.cost.HandshakeCost;
import io.tlsadmit.admission.cpu.CpuAllocation;
import io.tlsadmit.admission.control.SimulatedServer.Period;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scratch: figures of the Tomcat-like session server at 2-8x (not committed). */
class SaturationProbeTest {
    @TempDir Path noCgroups;

    SimulatedServer server(long seed) {
        SimulatedClock clock = new SimulatedClock();
        SimulatedServer[] created = new SimulatedServer[1];
        CpuAllocation allocation = new CpuAllocation(noCgroups, () -> created[0] == null ? 1 : (int) Math.ceil(created[0].cpus));
        AdmissionController controller = new AdmissionController(allocation, new HandshakeCost(), clock);
        SimulatedServer s = new SimulatedServer(clock, controller);
        created[0] = s;
        if (System.getProperty("target") != null) controller.setTargetUtilization(Double.parseDouble(System.getProperty("target")));
        double fixed = Double.parseDouble(System.getProperty("static", "0"));
        if (fixed > 0) { controller.setMaxFullHandshakesPerSecond(fixed); controller.setMinFullHandshakesPerSecond(fixed); }
        s.cpus = 1; s.fullCostNanos = 6_000_000; s.resumedCostNanos = 600_000; s.requestCpuNanos = 1_000_000;
        s.poisson = new Random(seed); s.useProcessCpuClock();
        s.sessionPages = 10; s.pageCpuNanos = 650_000; s.thinkNanos = 700_000_000; s.keepAliveNanos = 1_000_000_000;
        s.busyNoiseCpus = Double.parseDouble(System.getProperty("noise", "0.24")); s.workerThreads = 200;
        return s;
    }

    static double p99(List<Period> ps) {
        long[] all = ps.stream().flatMapToLong(p -> java.util.Arrays.stream(p.pageLatencyNanos())).sorted().toArray();
        return all.length == 0 ? Double.NaN : all[(int) Math.min(all.length - 1, Math.floor(0.99 * all.length))] / 1e6;
    }

    @Test
    void probe() {
        for (int times : new int[] {1, 2, 4, 8}) {
            StringBuilder line = new StringBuilder(times + "x:");
            for (long seed = 31; seed <= 36; seed++) {
                SimulatedServer s = server(seed);
                s.newPerSecond = times * 72;
                s.runPeriods(160);
                List<Period> st = s.runPeriods(80);
                double adm = st.stream().mapToLong(Period::newAdmitted).sum() / 20.0;
                double cpu = st.stream().mapToDouble(Period::busyCpuSeconds).sum() / st.stream().mapToDouble(Period::cpuCapacitySeconds).sum();
                long pages = st.stream().mapToLong(p -> p.pageLatencyNanos().length).sum();
                line.append(String.format(java.util.Locale.ROOT, "  [adm %.1f pages/s %.0f cpu %.3f p99 %.0f]", adm, pages / 20.0, cpu, p99(st)));
            }
            System.out.println("PROBE " + line);
        }
    }
}
