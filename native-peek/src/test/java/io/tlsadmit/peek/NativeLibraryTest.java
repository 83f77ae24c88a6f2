package io.tlsadmit.peek;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.Path;
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
    void theJarCarriesTheLibraryUnderTheConventionalAndTheJvmsOwnArchitectureName() throws Exception {
        String[] directories = NativeLibrary.platformDirectories();
        if (System.getProperty("os.arch").equals("amd64")) {
            assertArrayEquals(new String[] {"META-INF/native/linux-amd64/", "META-INF/native/linux-x86_64/"},
                    directories);
        }
        for (String directory : directories) {
            try (InputStream in = getClass().getClassLoader().getResourceAsStream(directory
                    + NativeLibrary.LIBRARY_FILE)) {
                assertNotNull(in, directory);
            }
        }
    }
}
