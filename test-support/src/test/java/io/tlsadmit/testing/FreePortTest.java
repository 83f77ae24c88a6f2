package io.tlsadmit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreePortTest {

    private static final Path RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    @Test
    void theKernelsEphemeralRangeIsReadWhole() throws IOException {
        assumeTrue(Files.isReadable(RANGE), "Linux");
        // the first number of the range, which no kernel lets start below 1024
        int start = FreePort.ephemeralStart();
        assertTrue(start >= 1024, "ephemeral range starts at " + start);
    }

    @Test
    void picksBelowTheEphemeralRange() {
        int start = FreePort.ephemeralStart();
        assumeTrue(start > 11_000, "a range that leaves room below it");
        for (int i = 0; i < 20; i++) {
            int port = FreePort.pick();
            assertTrue(port >= 10_000 && port < start, port + " not in [10000, " + start + ")");
        }
    }

    @Test
    void neverHandsOutAPortTwice() {
        // 2,000 draws from ~22,000 ports would repeat one ~90 times if each draw forgot the others
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            int port = FreePort.pick();
            assertTrue(seen.add(port), "handed out twice: " + port);
        }
    }

    @Test
    void aRangeFileReadsAsItsFirstPort(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("ip_local_port_range");
        Files.writeString(file, "32768\t60999\n");
        assertEquals(32768, FreePort.ephemeralStart(file));
        assertEquals(0, FreePort.ephemeralStart(dir.resolve("absent")));
    }
}
