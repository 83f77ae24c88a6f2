import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/** Each file held open and read from its start once a period, timed on the thread CPU clock: java FileParts ms n files... */
public class FileParts {
    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sleepMs = Long.parseLong(args[0]);
        int n = Integer.parseInt(args[1]);
        int m = args.length - 2;
        FileChannel[] ch = new FileChannel[m];
        for (int k = 0; k < m; k++) ch[k] = FileChannel.open(Path.of(args[k + 2]), StandardOpenOption.READ);
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        long[][] us = new long[m][n];
        long sink = 0;
        for (int i = 0; i < n; i++) {
            Thread.sleep(sleepMs);
            for (int k = 0; k < m; k++) {
                long c0 = threads.getCurrentThreadCpuTime();
                buf.clear();
                long pos = 0;
                int r;
                while ((r = ch[k].read(buf, pos)) > 0) pos += r;
                String s = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
                sink += s.length();
                us[k][i] = (threads.getCurrentThreadCpuTime() - c0) / 1000;
            }
        }
        System.out.printf("%d ms between periods, %d periods (first dropped), µs of CPU per read (%d)%n", sleepMs, n, sink & 1);
        for (int k = 0; k < m; k++) {
            long[] v = Arrays.copyOfRange(us[k], 1, n);
            Arrays.sort(v);
            System.out.printf("  %-50s median %5d  p25 %5d  p75 %5d%n", args[k + 2], v[v.length / 2], v[v.length / 4], v[3 * v.length / 4]);
        }
    }
}
