package io.tlsadmit.peek;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * Finds and loads {@code libtlsadmit_peek.so}: from {@code tlsadmit.peek.library} when set, else from the jar
 * ({@code META-INF/native/<os>-<arch>/}), copied first to a private temporary file because the dynamic linker
 * cannot map a file inside a jar. Never throws: a library that cannot load is reported as the reason.
 */
final class NativeLibrary {

    static final String DISABLE_PROPERTY = "tlsadmit.peek.disable";
    static final String LIBRARY_PROPERTY = "tlsadmit.peek.library";
    static final String LIBRARY_FILE = "libtlsadmit_peek.so";

    private NativeLibrary() {
    }

    /** Outcome of one load attempt; {@code reason} is null exactly when {@code loaded}. */
    record Outcome(boolean loaded, String reason) {
        static Outcome ok() {
            return new Outcome(true, null);
        }

        static Outcome failed(String reason) {
            return new Outcome(false, reason);
        }
    }

    /** The load the system properties ask for. */
    static Outcome loadConfigured() {
        if (Boolean.getBoolean(DISABLE_PROPERTY)) {
            return Outcome.failed("disabled by -D" + DISABLE_PROPERTY + "=true");
        }
        String explicit = System.getProperty(LIBRARY_PROPERTY);
        if (explicit != null && !explicit.isBlank()) {
            return loadFile(Path.of(explicit));
        }
        return loadBundled(NativeLibrary.class.getClassLoader(), platformDirectory());
    }

    /** The jar's directory for this JVM's platform. */
    static String platformDirectory() {
        return platformDirectory(System.getProperty("os.name", "unknown"), System.getProperty("os.arch", "unknown"));
    }

    /**
     * {@code META-INF/native/<os>-<arch>/}, with the architecture under the name the build and {@code uname -m}
     * use: JVMs call x86-64 {@code amd64} (some {@code x86_64}) and ARM64 {@code aarch64} (some {@code arm64}).
     * The jar carries {@code linux-x86_64} and {@code linux-aarch64}; any other platform finds nothing there and
     * uses the Java classifier.
     */
    static String platformDirectory(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT).startsWith("linux") ? "linux"
                : osName.toLowerCase(Locale.ROOT).replace(' ', '_');
        String arch = switch (osArch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> osArch;
        };
        return "META-INF/native/" + os + "-" + arch + "/";
    }

    static Outcome loadBundled(ClassLoader loader, String... directories) {
        for (String directory : directories) {
            String resource = directory + LIBRARY_FILE;
            try (InputStream in = loader.getResourceAsStream(resource)) {
                if (in != null) {
                    return loadCopy(in, resource);
                }
            } catch (IOException e) {
                return Outcome.failed("cannot read " + resource + ": " + e.getMessage());
            }
        }
        return Outcome.failed("no " + LIBRARY_FILE + " for this platform in the jar (looked in "
                + String.join(", ", directories) + ")");
    }

    private static Outcome loadCopy(InputStream in, String resource) {
        Path copy;
        try {
            copy = privateCopy(in);
        } catch (IOException | UnsupportedOperationException e) {
            return Outcome.failed("cannot extract " + resource + " to a private temporary file: " + e.getMessage());
        }
        try {
            return loadFile(copy);
        } finally {
            // Once mapped the file is no longer needed: remove it now so nothing is left behind even if the
            // JVM dies without running its exit hooks.
            try {
                Files.deleteIfExists(copy);
            } catch (IOException ignored) {
                // deleteOnExit remains as the second chance
            }
        }
    }

    /**
     * Copies the library to a new temporary file readable by this user only (created with those permissions, so
     * no other user can swap the code in between), deleted at exit at the latest.
     */
    static Path privateCopy(InputStream in) throws IOException {
        Path copy = Files.createTempFile("tlsadmit_peek", ".so",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        copy.toFile().deleteOnExit();
        // Written in place: Files.copy(REPLACE_EXISTING) would delete the file and create a new one with the
        // default permissions.
        try (OutputStream out = Files.newOutputStream(copy)) {
            in.transferTo(out);
            return copy;
        } catch (IOException e) {
            Files.deleteIfExists(copy);
            throw e;
        }
    }

    static Outcome loadFile(Path library) {
        if (!Files.isRegularFile(library)) {
            return Outcome.failed("native library " + library + " does not exist");
        }
        // HotSpot inspects a library's ELF header before dlopen and, for anything that is not ELF, warns that the
        // stack guard may be disabled and re-arms it; refuse such files before they get that far.
        if (!isElf(library)) {
            return Outcome.failed("cannot load " + library + ": not an ELF shared library");
        }
        try {
            System.load(library.toAbsolutePath().toString());
            return Outcome.ok();
        } catch (UnsatisfiedLinkError | SecurityException e) {
            return Outcome.failed("cannot load " + library + ": " + e.getMessage());
        }
    }

    private static boolean isElf(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(4);
            return magic.length == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F';
        } catch (IOException e) {
            return false;
        }
    }
}
