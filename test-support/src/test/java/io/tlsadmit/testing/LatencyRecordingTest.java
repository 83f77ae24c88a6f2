package io.tlsadmit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecordingTest {

    @Test
    void itIsReadWhileFourThreadsRecordAndLosesNothing() throws Exception {
        LatencyRecording times = new LatencyRecording();
        int perThread = 200_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    times.record(1 + i % 5_000); // new magnitudes keep arriving while the reader reads
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        long reads = 0;
        while (threads.stream().anyMatch(Thread::isAlive)) {
            Histogram now = times.snapshot();
            now.getValueAtPercentile(99); // iterating a histogram being recorded into threw here
            now.getMean();
            reads++;
        }
        for (Thread thread : threads) {
            thread.join();
        }
        Histogram all = times.snapshot();
        assertEquals(4L * perThread, all.getTotalCount(), "after " + reads + " reads");
        assertEquals(5_000, all.getMaxValue(), 5_000 * 0.001);
    }

    @Test
    void percentilesAreExactBelowTwoThousandAndNegativeValuesCountAsZero() {
        LatencyRecording times = new LatencyRecording();
        for (int ms = 1; ms <= 100; ms++) {
            times.record(ms);
        }
        times.record(-3);
        Histogram h = times.snapshot();
        assertEquals(101, h.getTotalCount());
        assertEquals(50, h.getValueAtPercentile(50));
        assertEquals(0, h.getMinValue());
        assertEquals(h.getTotalCount(), times.snapshot().getTotalCount(), "a second read loses nothing");
    }
}
