import io.tlsadmit.admission.cpu.CgroupCpuQuota;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import io.tlsadmit.admission.cpu.CpuAllocation;
import io.tlsadmit.admission.cpu.CpuCapacity;
import io.tlsadmit.peek.NativePeek;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The compiler threads' CPU read through their files and through native-peek's thread clock, and the CPU allocation's
 * parts, each timed on the thread CPU clock once a period: java ClockParts <ms between periods> <periods>.
 * The two compiler-thread readers alternate which goes first.
 */
public class ClockParts {
    public static void main(String[] args) throws Exception {
        if (!NativePeek.isAvailable()) throw new IllegalStateException(NativePeek.unavailableReason());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        CompilerThreadsCpu files = new CompilerThreadsCpu();
        CompilerThreadsCpu clock = new CompilerThreadsCpu(NativePeek::threadCpuNanos);
        CgroupCpuQuota quota = new CgroupCpuQuota(Path.of("/"));
        CpuAllocation allocation = new CpuAllocation();
        allocation.setCapacity(CpuCapacity.MEASURED);
        allocation.setAffinityMask(NativePeek::allowedCpuList);
        long sleepMs = Long.parseLong(args[0]);
        int n = Integer.parseInt(args[1]);
        String[] names = {"compiler threads, files", "compiler threads, native clock", "cgroup quota",
                "affinity mask (native)", "process CPU", "allocation.refresh (all of it)"};
        long[][] us = new long[names.length][n];
        long sink = 0;
        for (int i = 0; i < n; i++) {
            Thread.sleep(sleepMs);
            long[] c = new long[7];
            boolean filesFirst = i % 2 == 0;
            c[0] = threads.getCurrentThreadCpuTime();
            sink += filesFirst ? files.getAsLong() : clock.getAsLong();
            c[1] = threads.getCurrentThreadCpuTime();
            sink += filesFirst ? clock.getAsLong() : files.getAsLong();
            c[2] = threads.getCurrentThreadCpuTime();
            sink += (long) quota.read().min();
            c[3] = threads.getCurrentThreadCpuTime();
            sink += NativePeek.allowedCpuList().length;
            c[4] = threads.getCurrentThreadCpuTime();
            sink += os.getProcessCpuTime();
            c[5] = threads.getCurrentThreadCpuTime();
            sink += (long) allocation.refresh(os::getProcessCpuTime).cpus();
            c[6] = threads.getCurrentThreadCpuTime();
            us[filesFirst ? 0 : 1][i] = (c[1] - c[0]) / 1000;
            us[filesFirst ? 1 : 0][i] = (c[2] - c[1]) / 1000;
            for (int k = 2; k < names.length; k++) {
                us[k][i] = (c[k + 1] - c[k]) / 1000;
            }
        }
        System.out.printf("%d ms between periods, %d periods (first dropped), µs of CPU per reading (%d)%n", sleepMs, n,
                sink & 1);
        for (int k = 0; k < names.length; k++) {
            long[] v = Arrays.copyOfRange(us[k], 1, n);
            Arrays.sort(v);
            System.out.printf("  %-32s median %5d  p25 %5d  p75 %5d  mean %7.1f%n", names[k], v[v.length / 2],
                    v[v.length / 4], v[3 * v.length / 4], Arrays.stream(v).average().orElse(0));
        }
    }
}
