package io.tlsadmit.rubis.datagen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataGenCommandTest {

    @TempDir
    Path directory;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return DataGenCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void loadsAnH2FileAndPrintsTheRowCounts() {
        int status = run("--jdbc", "jdbc:h2:file:" + directory.resolve("rubis"), "--scale", "0.001", "--seed", "5");
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertTrue(printed.contains("100%"), "progress reaches the end");
        assertTrue(printed.matches("(?s).*users\\s+1,000\n.*"), printed);
        assertTrue(printed.matches("(?s).*old_items\\s+500\n.*"), printed);
        assertTrue(printed.contains("loaded in "));
    }

    @Test
    void aSecondLoadIntoTheSameDatabaseFailsCleanly() {
        String url = "jdbc:h2:file:" + directory.resolve("twice");
        assertEquals(0, run("--jdbc", url, "--scale", "0.0001"));
        assertEquals(1, run("--jdbc", url, "--scale", "0.0001"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("already holds RUBiS data"));
    }

    @Test
    void badUsageExplainsItselfWithStatusTwo() {
        assertEquals(2, run("--scale", "0.1"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--jdbc is required"));
        assertEquals(2, run("--jdbc", "jdbc:h2:mem:x", "--scale", "lots"));
        assertEquals(2, run("--jdbc", "jdbc:postgresql://x/y"));
        assertEquals(2, run("--jdbc", "jdbc:h2:mem:x", "--scale", "50"));
        assertEquals(2, run("--jdbc"));
        assertEquals(2, run("--frobnicate", "1"));
    }
}
