package io.tlsadmit.admission.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunQueueWaitTest {

    @TempDir
    Path tasks;

    /** Each reading a second after the last: every one walks the threads. */
    private final AtomicLong clock = new AtomicLong();

    private RunQueueWait reader(Path dir) {
        return new RunQueueWait(dir, () -> clock.addAndGet(1_000_000_000L));
    }

    private void task(String tid, long runNanos, long waitNanos) throws IOException {
        Files.createDirectories(tasks.resolve(tid));
        Files.writeString(tasks.resolve(tid).resolve("schedstat"), runNanos + " " + waitNanos + " 17\n");
    }

    @Test
    void sumsEachThreadsOwnIncreaseSoThatThreadsComingAndGoingCountOnlyTheirWaits() throws IOException {
        task("100", 5_000_000, 1_000_000);
        task("101", 9_000_000, 4_000_000);
        RunQueueWait wait = reader(tasks);
        assertTrue(wait.available());
        assertEquals(5_000_000, wait.getAsLong(), "everything waited so far");

        task("100", 6_000_000, 3_000_000);           // waited 2 ms more
        Files.delete(tasks.resolve("101").resolve("schedstat"));
        Files.delete(tasks.resolve("101"));           // exits: its 4 ms stay counted, nothing is taken away
        task("102", 1_000_000, 500_000);              // a new worker: what it waited since it started
        assertEquals(5_000_000 + 2_000_000 + 500_000, wait.getAsLong());

        assertEquals(7_500_000, wait.getAsLong(), "nothing waited since");
    }

    @Test
    void runDelayIsTheSecondField() throws IOException {
        task("7", 123, 456);
        assertEquals(456, RunQueueWait.runDelay(tasks.resolve("7").resolve("schedstat")));
        Files.writeString(tasks.resolve("7").resolve("schedstat"), "garbage\n");
        assertEquals(-1, RunQueueWait.runDelay(tasks.resolve("7").resolve("schedstat")));
        assertEquals(-1, RunQueueWait.runDelay(tasks.resolve("gone").resolve("schedstat")));
    }

    @Test
    void unavailableWithoutSchedstat() {
        assertFalse(reader(tasks.resolve("none")).available());
    }

    @Test
    void readingsCloserThanTheRereadIntervalShareOneWalk() throws IOException {
        AtomicLong now = new AtomicLong();
        task("1", 1_000, 2_000);
        RunQueueWait wait = new RunQueueWait(tasks, now::get);
        assertEquals(2_000, wait.getAsLong());
        task("1", 1_000, 9_000);
        now.addAndGet(RunQueueWait.REREAD_NANOS - 1);
        assertEquals(2_000, wait.getAsLong(), "another connector's controller, in the same instant: the last total");
        now.addAndGet(1);
        assertEquals(9_000, wait.getAsLong());
    }

    @Test
    void thisJvmOnLinuxHasIt() {
        RunQueueWait real = RunQueueWait.process();
        if (Files.isDirectory(Path.of("/proc/self/task"))) {
            assertTrue(real.available());
            long before = real.getAsLong();
            assertTrue(before >= 0 && real.getAsLong() >= before);
        }
    }
}
