package io.tlsadmit.admission.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskStatTest {

    @Test
    void fieldsAreCountedAfterTheLastParenthesisOfTheName() {
        TaskStat stat = TaskStat.parse(
                "4242 (exec (1) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 3 0 0 39 19 1 0 123 0 0\n");
        assertEquals(7, stat.userTicks());
        assertEquals(3, stat.systemTicks());
        assertEquals(10, stat.cpuTicks());
        assertEquals(0.1, stat.cpuSeconds(), 1e-12);
        assertEquals(19, stat.nice());
        assertEquals(-5, TaskStat.parse("1 (java) R 0 1 1 0 -1 0 0 0 0 0 250 50 0 0 15 -5 1 0 1 0 0").nice());
    }

    @Test
    void whatIsNotAStatLineIsAnErrorThatQuotesIt() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TaskStat.parse("no name here")).getMessage()
                .contains("no name here"));
        assertThrows(IllegalArgumentException.class, () -> TaskStat.parse("1 (java) R 0 1"));
        assertThrows(IllegalArgumentException.class,
                () -> TaskStat.parse("1 (java) R 0 1 1 0 -1 0 0 0 0 0 x 50 0 0 15 -5 1 0 1 0 0"));
    }

    @Test
    void aFileThatIsGoneIsEmpty(@TempDir Path dir) throws Exception {
        assertTrue(TaskStat.readIfPresent(dir.resolve("exited")).isEmpty());
        Path stat = Files.writeString(dir.resolve("stat"), "9 (C2 CompilerThre) S 1 1 1 0 -1 0 0 0 0 0 4 6 0 0 20 0 1 0 1");
        assertEquals(10, TaskStat.readIfPresent(stat).orElseThrow().cpuTicks());
    }

    @Test
    void thisProcessReadsAsItself() throws Exception {
        Path self = TaskStat.ofProcess(ProcessHandle.current().pid());
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(self), "no /proc here");
        // a JVM that has loaded JUnit and run tests has used far more than one 10 ms tick
        assertTrue(TaskStat.read(self).cpuTicks() > 0);
    }
}
