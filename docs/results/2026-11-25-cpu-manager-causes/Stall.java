// Reproduction aid for docs/benchmarks.md section 6 ("causes"): run by quota-group.sh, not part of the build.
import java.util.*;
import java.util.concurrent.*;
/** Closed loop: 4 workers each run jobs of ~2 ms CPU back to back for 15 s; prints job latency percentiles. */
public class Stall {
    static volatile long sink;
    public static void main(String[] a) throws Exception {
        int threads = 4; long seconds = 15;
        // calibrate: iterations for ~2 ms of CPU
        long iters = 200_000; long t0 = System.nanoTime(); spin(iters); long took = System.nanoTime() - t0;
        for (int i = 0; i < 5; i++) { t0 = System.nanoTime(); spin(iters); took = Math.min(took, System.nanoTime() - t0); }
        long perJob = Math.max(1, iters * 2_000_000L / took);
        List<Long> lat = Collections.synchronizedList(new ArrayList<>());
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            ts[i] = new Thread(() -> { while (System.nanoTime() < end) { long s = System.nanoTime(); spin(perJob); lat.add(System.nanoTime() - s); } });
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        List<Long> l = new ArrayList<>(lat); Collections.sort(l);
        System.out.printf("jobs %d (%.1f/s)  p50 %.1f ms  p99 %.1f ms  p99.9 %.1f ms  max %.1f ms%n", l.size(), l.size() / (double) seconds,
            l.get(l.size() / 2) / 1e6, l.get((int) (l.size() * 0.99)) / 1e6, l.get((int) (l.size() * 0.999)) / 1e6, l.get(l.size() - 1) / 1e6);
    }
    static void spin(long n) { long x = 0; for (long i = 0; i < n; i++) x += i * 31 ^ (x >>> 3); sink = x; }
}
