package io.tlsadmit.bench;

import io.tlsadmit.testing.CpuPinning;
import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.TestKeystore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Netty example server (netty/target/tlsadmit-netty-server.jar) as a process: {@code --gate off}, or the gate with
 * a static or an adaptive budget, on the JDK's TLS engine or BoringSSL's, serving the benchmark's key store. The same
 * request work as Tomcat's ({@code /work?n=K}), the same metric families on its own metrics port.
 */
final class NettyUnderTest implements ServerUnderTest {
    /** What the example server prints once it accepts connections (its ExampleServer.READY), with the ports it got. */
    private static final Pattern READY = Pattern.compile(
            "^tlsadmit-netty-server: listening on https://127\\.0\\.0\\.1:(\\d+) .*metrics at http://127\\.0\\.0\\.1:(\\d+)/",
            Pattern.MULTILINE);
    private static final long START_TIMEOUT_MILLIS = 120_000;
    private static final long STOP_TIMEOUT_SECONDS = 30;

    private final BenchOptions options;
    private final Path jar;
    private final Path logs;
    private final TestKeystore keystore;
    private final Jdk jdk;

    NettyUnderTest(BenchOptions options, Path root, TestKeystore keystore, Jdk jdk) {
        this.options = options;
        this.jar = root.resolve("netty/target/tlsadmit-netty-server.jar");
        this.logs = root.resolve("overload-bench/target/netty-logs");
        this.keystore = keystore;
        this.jdk = jdk;
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it first (mvn -pl netty -am package)");
        }
    }

    @Override
    public String description() {
        String netty = bundledVersion("io.netty/netty-handler");
        return "the Netty example server (Netty " + netty + ", "
                + (options.engine().equals("openssl")
                        ? "BoringSSL engine, netty-tcnative " + bundledVersion("io.netty/netty-tcnative-boringssl-static")
                        : "JDK engine")
                + ") on JDK " + jdk.feature();
    }

    @Override
    public String requestPath(int workBlocks) {
        return "/work?n=" + workBlocks;
    }

    @Override
    public Running start(String mode, double capacity) throws Exception {
        List<String> command = new ArrayList<>(List.of(jdk.java().toString(), "-Xmx1g", "-jar", jar.toString(),
                "--port", "0", "--metrics-port", "0", "--engine", options.engine(),
                "--key-store", keystore.path().toString(), "--key-store-password", keystore.password()));
        switch (mode) {
            case "off" -> command.addAll(List.of("--gate", "off"));
            case "static" -> command.addAll(List.of("--budget", "static",
                    "--rate", String.format(Locale.ROOT, "%.0f", Math.max(1, capacity)),
                    "--burst", Long.toString(TomcatUnderTest.staticBurst(capacity))));
            default -> command.addAll(List.of("--budget", mode));
        }
        Files.createDirectories(logs);
        Path log = logs.resolve(mode + "-" + options.engine() + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Matcher ready = awaitReady(process, log);
            CpuPinning.pin(process.pid(), "0");
            return new Started(process.pid(), Integer.parseInt(ready.group(1)),
                    URI.create("http://127.0.0.1:" + ready.group(2) + "/tlsadmit/metrics"), () -> stop(process));
        } catch (Exception | Error e) {
            stop(process);
            throw e;
        }
    }

    /** Until the server prints that it listens; its log in the exception when it exits or takes too long instead. */
    private static Matcher awaitReady(Process process, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MILLIS);
        while (System.nanoTime() < deadline) {
            String output = Files.readString(log);
            Matcher ready = READY.matcher(output);
            if (ready.find()) {
                return ready;
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the Netty server exited with status " + process.exitValue() + ":\n"
                        + output);
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the Netty server did not listen within " + START_TIMEOUT_MILLIS / 1000 + " s ("
                + log + "):\n" + Files.readString(log));
    }

    /** SIGTERM (its shutdown hook closes the channels), then kill after 30 s. */
    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** A library's version as the shaded jar records it (META-INF/maven/group/artifact/pom.properties). */
    private String bundledVersion(String groupAndArtifact) {
        try (JarFile file = new JarFile(jar.toFile())) {
            var entry = file.getEntry("META-INF/maven/" + groupAndArtifact + "/pom.properties");
            if (entry == null) {
                return "?";
            }
            Properties properties = new Properties();
            try (InputStream in = file.getInputStream(entry)) {
                properties.load(in);
            }
            return properties.getProperty("version", "?");
        } catch (IOException e) {
            return "?";
        }
    }
}
