import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A real AdmissionController (this process's CPU clock, its compiler threads' clock, /proc/stat) ticked on its own:
 * java TickCost <ms between ticks> <ticks> <ticks per line>. Prints the mean thread CPU per tick, and the JVM's total
 * compilation time so far.
 */
public class TickCost {
    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        AdmissionController controller = new AdmissionController();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        controller.setProcessCpuTime(os::getProcessCpuTime);
        CompilerThreadsCpu compilation = new CompilerThreadsCpu();
        if (compilation.available()) {
            controller.setTransientCpuTime(compilation);
        }
        long sleepMs = Long.parseLong(args[0]);
        int n = Integer.parseInt(args[1]);
        int perLine = Integer.parseInt(args[2]);
        long sum = 0;
        int k = 0;
        for (int i = 1; i <= n; i++) {
            Thread.sleep(sleepMs);
            long before = threads.getCurrentThreadCpuTime();
            controller.tick(System.nanoTime());
            sum += threads.getCurrentThreadCpuTime() - before;
            k++;
            if (i % perLine == 0) {
                System.out.printf("ticks %d-%d: %.1f us CPU per tick, JIT total %d ms%n", i - k + 1, i, sum / 1e3 / k,
                        ManagementFactory.getCompilationMXBean().getTotalCompilationTime());
                sum = 0;
                k = 0;
            }
        }
    }
}
