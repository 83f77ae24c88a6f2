package io.tlsadmit.gate.adaptive;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import io.tlsadmit.peek.NativePeek;
import org.junit.jupiter.api.Test;

/** The adaptive budget's compiler-thread CPU read through native-peek's thread clock, against the threads' files. */
class CompilerThreadsOnNativeClockTest {

    @Test
    void theNativeClockReadsTheSameRunTimeAsTheThreadsSchedstatFiles() {
        assumeTrue(NativePeek.isAvailable(), NativePeek::unavailableReason);
        String last = "";
        // HotSpot may start or stop a compiler thread between two listings (each reader lists the threads at its
        // first reading), and the sums then cover different threads: a few attempts, one of which must agree
        for (int attempt = 0; attempt < 5; attempt++) {
            CompilerThreadsCpu files = new CompilerThreadsCpu();
            CompilerThreadsCpu clock = new CompilerThreadsCpu(NativePeek::threadCpuNanos);
            long before = files.getAsLong();
            long read = clock.getAsLong();
            long after = files.getAsLong();
            files.close();
            if (before > 0 && before <= read && read <= after) {
                return;
            }
            last = "files " + before + " ≤ clock " + read + " ≤ files " + after;
        }
        assertTrue(false, "the native clock never read between two file readings: " + last);
    }
}
