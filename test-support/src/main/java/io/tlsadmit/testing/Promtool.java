package io.tlsadmit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus's own linter on an exposition: {@code promtool check metrics} (Debian package {@code prometheus},
 * installed by bin/prerequisites). Without promtool the check is skipped with a note, except in CI
 * ({@code CI=true}), where a missing linter must not pass for a clean exposition.
 */
public final class Promtool {

    private Promtool() {
    }

    /** Fails on any complaint promtool prints about {@code exposition}. */
    public static void checkMetrics(String exposition) throws IOException, InterruptedException {
        Path promtool = installed().orElse(null);
        if (promtool == null) {
            String note = "promtool is not installed (Debian package 'prometheus', bin/prerequisites installs it)";
            assertTrue(!"true".equals(System.getenv("CI")), note + ": required in CI");
            assumeTrue(false, note + ": skipping promtool check metrics");
        }
        Process check = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        try (var in = check.getOutputStream()) {
            in.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(check.waitFor(60, TimeUnit.SECONDS), "promtool check metrics did not finish");
        assertEquals("", output.strip(), "promtool check metrics complains:\n" + output);
        assertEquals(0, check.exitValue(), output);
    }

    private static Optional<Path> installed() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "promtool");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
