package io.tlsadmit.bench;

import io.tlsadmit.testing.TomcatServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * async-profiler loaded into a running Tomcat through the JDK's {@code jcmd JVMTI.agent_load}, so that a profile
 * covers only the part of a run one chooses (the measured rounds, not the warm-up). Each command loads the library
 * again with new options, which is how the agent takes {@code start} and {@code stop,file=...}.
 */
final class AsyncProfilerAgent {

    private static final String LIBRARY = "linux-x64/libasyncProfiler.so";

    private AsyncProfilerAgent() {
    }

    /** Copies the agent library out of the async-profiler jar on our class path into {@code dir}. */
    static Path extract(Path dir) throws IOException {
        if (!System.getProperty("os.arch").equals("amd64") || !System.getProperty("os.name").equals("Linux")) {
            throw new IllegalStateException("--async-profiler: only Linux x86-64 is supported here");
        }
        Files.createDirectories(dir);
        Path library = dir.resolve("libasyncProfiler.so");
        try (InputStream in = AsyncProfilerAgent.class.getClassLoader().getResourceAsStream(LIBRARY)) {
            if (in == null) {
                throw new IllegalStateException("--async-profiler: " + LIBRARY + " is not on the class path");
            }
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
        }
        return library;
    }

    /** Sends {@code options} (async-profiler's agent syntax) to the profiler in {@code server}'s JVM. */
    static void command(TomcatServer server, Path library, String options) throws IOException, InterruptedException {
        Path jcmd = server.jdk().home().resolve("bin/jcmd");
        // Quoted: jcmd reads an argument holding '=' as name=value and would hand the agent the part after it.
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(server.pid()), "JVMTI.agent_load",
                library.toString(), "\"" + options + "\"").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0 || !output.contains("return code: 0")) {
            throw new IllegalStateException("async-profiler \"" + options + "\" in " + server + " failed: " + output.strip());
        }
    }
}
