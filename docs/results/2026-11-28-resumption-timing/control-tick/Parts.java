import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import java.lang.management.*;
public class Parts {
  public static void main(String[] a) throws Exception {
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    AdmissionController c = new AdmissionController();
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    CompilerThreadsCpu comp = new CompilerThreadsCpu();
    long sleepMs = Long.parseLong(a[0]); int n = Integer.parseInt(a[1]);
    long[] s = new long[5]; long sink = 0;
    for (int i = 1; i <= n; i++) {
      Thread.sleep(sleepMs);
      long c0 = t.getCurrentThreadCpuTime();
      long c1 = t.getCurrentThreadCpuTime();
      sink += os.getProcessCpuTime();
      long c2 = t.getCurrentThreadCpuTime();
      sink += comp.getAsLong();
      long c3 = t.getCurrentThreadCpuTime();
      sink += (long) c.allocation().refresh(os::getProcessCpuTime).cpus();
      long c4 = t.getCurrentThreadCpuTime();
      long x = 0; for (int j = 0; j < 1000; j++) x += j * 31 ^ x; sink += x;
      long c5 = t.getCurrentThreadCpuTime();
      s[0] += c1 - c0; s[1] += c2 - c1; s[2] += c3 - c2; s[3] += c4 - c3; s[4] += c5 - c4;
    }
    System.out.printf("sleep %d ms, us per period: first clock read %.1f, processCpu %.1f, compilerThreads %.1f, allocation.refresh %.1f, 1000-iter loop %.1f (%d)%n",
      sleepMs, s[0]/1e3/n, s[1]/1e3/n, s[2]/1e3/n, s[3]/1e3/n, s[4]/1e3/n, sink & 1);
  }
}
