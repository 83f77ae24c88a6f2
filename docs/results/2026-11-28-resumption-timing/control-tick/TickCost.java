import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import java.lang.management.*;
public class TickCost {
  public static void main(String[] a) throws Exception {
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    AdmissionController c = new AdmissionController();
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    c.setProcessCpuTime(os::getProcessCpuTime);
    CompilerThreadsCpu comp = new CompilerThreadsCpu();
    if (comp.available()) c.setTransientCpuTime(comp);
    long sleepMs = Long.parseLong(a[0]); int n = Integer.parseInt(a[1]); int report = Integer.parseInt(a[2]);
    long sum = 0; int k = 0;
    for (int i = 1; i <= n; i++) {
      Thread.sleep(sleepMs);
      long c0 = t.getCurrentThreadCpuTime();
      c.tick(System.nanoTime());
      sum += t.getCurrentThreadCpuTime() - c0; k++;
      if (i % report == 0) { System.out.printf("ticks %d-%d: %.1f us CPU per tick, JIT total %d ms%n", i - k + 1, i, sum / 1e3 / k, ManagementFactory.getCompilationMXBean().getTotalCompilationTime()); sum = 0; k = 0; }
    }
  }
}
