package io.tlsadmit.admission.cost;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.admission.HandshakeKind;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** Recording runs once per handshake on network threads: it must not feed the garbage collector. */
class RecordingAllocatesNothingTest {

    @Test
    void recordingAHandshakeAllocatesNoHeap() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        HandshakeCost cost = new HandshakeCost();
        long id = Thread.currentThread().getId();
        record(cost, 20_000); // warm-up: class loading and LongAdder cells happen here, once

        long before = threads.getThreadAllocatedBytes(id);
        record(cost, 100_000);
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        // One object per record would be at least 1.6 MB; the measurement itself costs a few bytes.
        assertTrue(allocated < 1024, allocated + " bytes allocated by 100000 records");
    }

    private static void record(HandshakeCost cost, int n) {
        for (int i = 0; i < n; i++) {
            cost.record(i % 3 == 0 ? HandshakeKind.RESUMED : HandshakeKind.FULL,
                    i % 2 == 0 ? CostedVersion.TLS_1_3 : CostedVersion.TLS_1_2, 100_000 + i);
        }
    }
}
