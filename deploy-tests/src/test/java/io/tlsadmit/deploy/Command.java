package io.tlsadmit.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One run of an external tool (docker-compose, promtool, haproxy): its exit status and everything it printed. */
record Command(List<String> command, int exitCode, String output) {

    /** Runs {@code command} in the repository root with {@code env} added to this process's environment. */
    static Command run(Map<String, String> env, String... command) {
        List<String> argv = new ArrayList<>(List.of(command));
        if (!command[0].contains("/")) {
            argv.set(0, installed(command[0]).toString());
        }
        try {
            // output goes to a file, so that a tool that hangs is noticed by the deadline, not by a blocked read
            Path output = Files.createTempFile("deploy-tests-command", ".out");
            try {
                ProcessBuilder builder = new ProcessBuilder(argv).directory(Repository.root().toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
                builder.environment().putAll(env);
                Process process = builder.start();
                if (!process.waitFor(120, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", command) + " did not finish within 120 s:\n"
                            + Files.readString(output));
                }
                return new Command(List.of(command), process.exitValue(), Files.readString(output));
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + command[0], e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Command run(String... command) {
        return run(Map.of(), command);
    }

    boolean succeeded() {
        return exitCode == 0;
    }

    List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        return lines;
    }

    @Override
    public String toString() {
        return String.join(" ", command) + " -> exit " + exitCode + "\n" + output;
    }

    /**
     * Where {@code tool} is. The tools come from Debian packages (bin/prerequisites): say which one is missing
     * rather than fail with an IOException.
     */
    static Path installed(String tool) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin";
        for (String dir : path.split(":")) {
            Path candidate = Path.of(dir, tool);
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        String debianPackage = switch (tool) {
            case "promtool" -> "prometheus";
            case "mariadb" -> "mariadb-client";
            case "mvn" -> "maven";
            default -> tool;
        };
        throw new IllegalStateException(tool + " is not installed: install the Debian package '" + debianPackage
                + "' (bin/prerequisites does)");
    }
}
