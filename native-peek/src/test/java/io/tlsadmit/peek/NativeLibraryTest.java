package io.tlsadmit.peek;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class NativeLibraryTest {

    @Test
    void aLibraryMissingFromTheJarIsReportedAsTheReasonNotThrown() {
        NativeLibrary.Outcome outcome = NativeLibrary.loadBundled(NativeLibrary.class.getClassLoader(),
                "META-INF/native/no-such-platform/");
        assertFalse(outcome.loaded());
        assertTrue(outcome.reason().contains("no libtlsadmit_peek.so for this platform"), outcome.reason());
    }

    @Test
    void aMissingExplicitLibraryFileIsReportedAsTheReason() {
        NativeLibrary.Outcome outcome = NativeLibrary.loadFile(Path.of("/nonexistent/libtlsadmit_peek.so"));
        assertFalse(outcome.loaded());
        assertTrue(outcome.reason().contains("does not exist"), outcome.reason());
    }

    @Test
    void aFileThatIsNotALibraryIsReportedAsTheReason() {
        NativeLibrary.Outcome outcome = NativeLibrary.loadBundled(NativeLibrary.class.getClassLoader(),
                "io/tlsadmit/peek/not-a-library/");
        assertFalse(outcome.loaded());
        assertTrue(outcome.reason().startsWith("cannot load"), outcome.reason());
    }

    @Test
    void theLibraryIsExtractedToAFileOnlyItsOwnerCanTouch() throws Exception {
        Path copy = NativeLibrary.privateCopy(new ByteArrayInputStream(new byte[] {0x7f, 'E', 'L', 'F'}));
        try {
            assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(copy));
            assertArrayEquals(new byte[] {0x7f, 'E', 'L', 'F'}, Files.readAllBytes(copy));
        } finally {
            Files.delete(copy);
        }
    }

    @Test
    void theLibraryIsLookedUpUnderTheArchitectureNameOfTheBuild() {
        assertEquals("META-INF/native/linux-x86_64/", NativeLibrary.platformDirectory("Linux", "amd64"));
        assertEquals("META-INF/native/linux-x86_64/", NativeLibrary.platformDirectory("Linux", "x86_64"));
        assertEquals("META-INF/native/linux-aarch64/", NativeLibrary.platformDirectory("Linux", "aarch64"));
        assertEquals("META-INF/native/linux-aarch64/", NativeLibrary.platformDirectory("Linux", "arm64"));
        assertEquals("META-INF/native/mac_os_x-aarch64/", NativeLibrary.platformDirectory("Mac OS X", "aarch64"));
    }

    @Test
    void anotherPlatformFindsNoLibraryAndSaysWhere() {
        NativeLibrary.Outcome outcome = NativeLibrary.loadBundled(NativeLibrary.class.getClassLoader(),
                NativeLibrary.platformDirectory("Mac OS X", "aarch64"));
        assertFalse(outcome.loaded());
        assertTrue(outcome.reason().contains("META-INF/native/mac_os_x-aarch64/"), outcome.reason());
    }

    /**
     * The host's library is always built; the other architecture's when its cross compiler is installed, which
     * {@code bin/prerequisites} does, so CI requires both. Each must be an ELF for the architecture its directory
     * names, or the loader would hand a JVM code it cannot run.
     */
    @Test
    @Tag("native")
    void theJarCarriesEachLinuxArchitecturesLibraryInItsOwnDirectory() throws Exception {
        String host = NativeLibrary.platformDirectory();
        Map<String, Integer> elfMachine = Map.of("META-INF/native/linux-x86_64/", 62,
                "META-INF/native/linux-aarch64/", 183);
        assertTrue(elfMachine.containsKey(host), host);
        boolean ci = "true".equals(System.getenv("CI"));
        for (Map.Entry<String, Integer> platform : elfMachine.entrySet()) {
            try (InputStream in = getClass().getClassLoader().getResourceAsStream(platform.getKey()
                    + NativeLibrary.LIBRARY_FILE)) {
                if (in == null) {
                    assertFalse(platform.getKey().equals(host) || ci, "no library in " + platform.getKey());
                    continue;
                }
                byte[] header = in.readNBytes(20);
                assertArrayEquals(new byte[] {0x7f, 'E', 'L', 'F', 2, 1}, Arrays.copyOf(header, 6),
                        platform.getKey() + ": a 64-bit little-endian ELF");
                int machine = (header[18] & 0xff) | (header[19] & 0xff) << 8;
                assertEquals(platform.getValue(), machine, platform.getKey() + ": ELF e_machine");
            }
        }
    }
}
