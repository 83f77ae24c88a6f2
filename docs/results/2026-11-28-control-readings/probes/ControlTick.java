import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import io.tlsadmit.admission.cpu.CpuCapacity;
import io.tlsadmit.peek.NativePeek;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * A real AdmissionController wired as the gate wires it (process CPU clock, the compiler threads' clock, cpuCapacity
 * "measured", native-peek's affinity mask), ticked on its own: java ControlTick <native|files> <ms between ticks>
 * <ticks> <ticks per line>. "native" reads the compiler threads through native-peek's thread CPU clock (the gate from
 * 02938a03 on), "files" through their schedstat files (before; the only mode a build before 02938a03 can run). Prints
 * the thread CPU per tick: the mean of each group of ticks, then the median and quartiles of the ticks after the
 * first 20.
 */
public class ControlTick {
    public static void main(String[] args) throws Exception {
        if (!NativePeek.isAvailable()) throw new IllegalStateException(NativePeek.unavailableReason());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        AdmissionController controller = new AdmissionController();
        controller.setCpuCapacity(CpuCapacity.MEASURED);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        controller.setProcessCpuTime(os::getProcessCpuTime);
        CompilerThreadsCpu compilation = args[0].equals("native")
                ? new CompilerThreadsCpu(NativePeek::threadCpuNanos) : new CompilerThreadsCpu();
        controller.setTransientCpuTime(compilation);
        controller.allocation().setAffinityMask(NativePeek::allowedCpuList);
        long sleepMs = Long.parseLong(args[1]);
        int n = Integer.parseInt(args[2]);
        int perLine = Integer.parseInt(args[3]);
        long[] us = new long[n];
        long sum = 0;
        int k = 0;
        for (int i = 1; i <= n; i++) {
            Thread.sleep(sleepMs);
            long before = threads.getCurrentThreadCpuTime();
            controller.tick(System.nanoTime());
            long spent = threads.getCurrentThreadCpuTime() - before;
            us[i - 1] = spent / 1000;
            sum += spent;
            k++;
            if (i % perLine == 0) {
                System.out.printf("%s ticks %d-%d: %.1f us CPU per tick%n", args[0], i - k + 1, i, sum / 1e3 / k);
                sum = 0;
                k = 0;
            }
        }
        long[] v = Arrays.copyOfRange(us, Math.min(20, n - 1), n);
        Arrays.sort(v);
        System.out.printf("%s, %d ms between ticks, ticks 21-%d: median %d us, p25 %d, p75 %d%n", args[0], sleepMs, n,
                v[v.length / 2], v[v.length / 4], v[3 * v.length / 4]);
    }
}
