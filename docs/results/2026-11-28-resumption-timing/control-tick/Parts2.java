import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import java.lang.management.*;
import java.util.*;
public class Parts2 {
  public static void main(String[] a) throws Exception {
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    AdmissionController c = new AdmissionController();
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    CompilerThreadsCpu comp = new CompilerThreadsCpu();
    long sleepMs = Long.parseLong(a[0]); int n = Integer.parseInt(a[1]);
    long[] ct = new long[n], rt = new long[n]; long sink = 0;
    for (int i = 0; i < n; i++) {
      Thread.sleep(sleepMs);
      long c2 = t.getCurrentThreadCpuTime();
      sink += comp.getAsLong();
      long c3 = t.getCurrentThreadCpuTime();
      sink += (long) c.allocation().refresh(os::getProcessCpuTime).cpus();
      long c4 = t.getCurrentThreadCpuTime();
      ct[i] = (c3 - c2) / 1000; rt[i] = (c4 - c3) / 1000;
    }
    System.out.println("compilerThreads us: " + Arrays.toString(ct));
    System.out.println("refresh us: " + Arrays.toString(rt));
  }
}
