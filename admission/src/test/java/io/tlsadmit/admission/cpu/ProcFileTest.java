package io.tlsadmit.admission.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file kept open and read again from its start: fresh content each time, on the real kernel's files too. */
class ProcFileTest {

    @TempDir
    Path dir;

    @Test
    void aHeldProcFileShowsTheCountersOfNowNotOfWhenItWasOpened() throws IOException {
        Path self = Path.of("/proc/self/stat");
        assumeTrue(Files.isReadable(self), "Linux /proc");
        ProcFile held = new ProcFile(self);
        long first = TaskStat.parse(held.read()).cpuTicks();
        // burn CPU until a newly opened file shows more than the held one did, then the held one must show as much
        long reopened;
        long x = 0;
        do {
            for (int i = 0; i < 1_000_000; i++) {
                x += i * 31L ^ x;
            }
            reopened = TaskStat.read(self).cpuTicks();
        } while (reopened <= first);
        assertTrue(TaskStat.parse(held.read()).cpuTicks() >= reopened, "stale content from " + x);
    }

    @Test
    void readsTheWholeFileAgainEachTimeHoweverLong() throws IOException {
        Path file = dir.resolve("stat");
        Files.writeString(file, "short\n");
        ProcFile held = new ProcFile(file);
        assertEquals("short\n", held.read());
        String longer = "x".repeat(10_000) + "\n"; // more than the first buffer
        Files.writeString(file, longer);
        assertEquals(longer, held.read());
        Files.writeString(file, "again\n");
        assertEquals("again\n", held.read(), "from the start, whatever was read before");
    }

    @Test
    void anExitedThreadsFileFailsToReadAndIsThenLookedUpAgain() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/thread-self")), "Linux /proc");
        CountDownLatch exit = new CountDownLatch(1);
        CompletableFuture<Path> stat = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                // "/proc/thread-self" links to "<pid>/task/<tid>"
                stat.complete(Path.of("/proc").resolve(Files.readSymbolicLink(Path.of("/proc/thread-self")))
                        .resolve("stat"));
                exit.await();
            } catch (Exception e) {
                stat.completeExceptionally(e);
            }
        });
        thread.start();
        ProcFile held = new ProcFile(stat.get());
        assertTrue(held.read().contains(") "), "the live thread's stat");
        exit.countDown();
        thread.join();
        // join() returns when the JVM is done with the thread; the kernel's task ends a moment later
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        boolean failed = false;
        while (!failed && System.nanoTime() < deadline) {
            try {
                held.read();
                Thread.sleep(10);
            } catch (IOException e) {
                failed = true;
            }
        }
        assertTrue(failed, "the thread has exited: its held file must fail to read");
        assertThrows(NoSuchFileException.class, held::read, "closed by the failure, opened again: no such thread");
    }

    @Test
    void aFileThatIsNotThereFailsUntilItIs() throws IOException {
        Path file = dir.resolve("cpu.max");
        ProcFile held = new ProcFile(file);
        assertThrows(NoSuchFileException.class, held::read);
        Files.writeString(file, "max 100000\n");
        assertEquals("max 100000\n", held.read());
        held.close();
        Files.writeString(file, "50000 100000\n");
        assertEquals("50000 100000\n", held.read(), "closed, then opened again by the next read");
    }
}
