import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The readings of one control period, each timed on the thread CPU clock: java Parts <ms between periods> <periods>.
 * Prints each reading's mean CPU per period and, for the two file readings, every period's.
 */
public class Parts {
    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        AdmissionController controller = new AdmissionController();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        CompilerThreadsCpu compilation = new CompilerThreadsCpu();
        long sleepMs = Long.parseLong(args[0]);
        int n = Integer.parseInt(args[1]);
        long[] sums = new long[5];
        long[] compilerCalls = new long[n];
        long[] refreshCalls = new long[n];
        long sink = 0;
        for (int i = 0; i < n; i++) {
            Thread.sleep(sleepMs);
            long c0 = threads.getCurrentThreadCpuTime();
            long c1 = threads.getCurrentThreadCpuTime();
            sink += os.getProcessCpuTime();
            long c2 = threads.getCurrentThreadCpuTime();
            sink += compilation.getAsLong();
            long c3 = threads.getCurrentThreadCpuTime();
            sink += (long) controller.allocation().refresh(os::getProcessCpuTime).cpus();
            long c4 = threads.getCurrentThreadCpuTime();
            long x = 0;
            for (int j = 0; j < 1000; j++) {
                x += j * 31 ^ x;
            }
            sink += x;
            long c5 = threads.getCurrentThreadCpuTime();
            sums[0] += c1 - c0;
            sums[1] += c2 - c1;
            sums[2] += c3 - c2;
            sums[3] += c4 - c3;
            sums[4] += c5 - c4;
            compilerCalls[i] = (c3 - c2) / 1000;
            refreshCalls[i] = (c4 - c3) / 1000;
        }
        System.out.printf("%d ms between periods, µs of CPU per period: a clock reading %.1f, processCpu %.1f,"
                + " compilerThreads %.1f, allocation.refresh %.1f, 1000 integer operations %.1f (%d)%n", sleepMs,
                sums[0] / 1e3 / n, sums[1] / 1e3 / n, sums[2] / 1e3 / n, sums[3] / 1e3 / n, sums[4] / 1e3 / n, sink & 1);
        System.out.println("compilerThreads, µs each period: " + Arrays.toString(compilerCalls));
        System.out.println("allocation.refresh, µs each period: " + Arrays.toString(refreshCalls));
    }
}
