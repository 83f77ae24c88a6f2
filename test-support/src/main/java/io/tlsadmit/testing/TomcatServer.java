package io.tlsadmit.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * One real Tomcat process: a fresh CATALINA_BASE (the distribution's conf/ copied, our server.xml,
 * extra lib/ jars, webapps), started with {@code catalina.sh run} under a chosen JDK.
 * {@link #close()} always ends the process, so use it in try-with-resources or {@code @AfterAll}.
 */
public final class TomcatServer implements AutoCloseable {

    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final int TAIL_LINES = 60;
    /** Logged by Catalina.start when the server is up (the JVM runs with an English locale, see start()). */
    private static final String STARTED = "org.apache.catalina.startup.Catalina.start Server startup in";
    /** Tomcat's {@code lifecycleBase.initFail} and {@code startFail} for a connector. */
    private static final List<String> CONNECTOR_FAILURES = List.of("Failed to initialize component [Connector[",
            "Failed to start component [Connector[");
    private static final Duration CONNECTOR_FAILURE_SETTLE = Duration.ofSeconds(2);

    private final TomcatDistribution distribution;
    private final Path base;
    private final Jdk jdk;
    private final Map<String, Integer> ports;
    private final List<String> catalinaOpts;
    private final Duration startTimeout;
    private final int jmxPort;
    /** The CPUs the process runs on from its first instruction ({@code taskset -c}); null: wherever it may. */
    private final String cpus;
    private Process process;
    private JMXConnector jmxConnector;
    /**
     * Kills the process when this JVM is stopped before {@link #close()} (Ctrl-C on a benchmark, a killed run):
     * a child process outlives its parent, and an orphaned Tomcat kept its CPUs and ports busy for the next run.
     */
    private Thread killOnExit;

    private TomcatServer(Builder builder, Path base, Map<String, Integer> ports, int jmxPort) {
        this.distribution = builder.distribution;
        this.base = base;
        this.jdk = builder.jdk;
        this.ports = Map.copyOf(ports);
        this.catalinaOpts = List.copyOf(builder.catalinaOpts);
        this.startTimeout = builder.startTimeout;
        this.jmxPort = jmxPort;
        this.cpus = builder.cpus;
    }

    public static Builder builder(TomcatDistribution distribution) {
        return new Builder(distribution);
    }

    /** Starts Tomcat and waits until it has started (logged so) and every connector accepts connections. */
    public TomcatServer start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("Already running: " + base);
        }
        // English log messages whatever the machine's locale: start() and tests read catalina.out.
        List<String> opts = new ArrayList<>(List.of("-Duser.language=en", "-Duser.country=US"));
        opts.addAll(catalinaOpts);
        if (jmxPort > 0) {
            opts.add("-Dcom.sun.management.jmxremote.port=" + jmxPort);
            opts.add("-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort);
            opts.add("-Dcom.sun.management.jmxremote.host=127.0.0.1");
            opts.add("-Djava.rmi.server.hostname=127.0.0.1");
            opts.add("-Dcom.sun.management.jmxremote.authenticate=false");
            opts.add("-Dcom.sun.management.jmxremote.ssl=false");
        }
        List<String> command = new ArrayList<>();
        if (cpus != null) {
            command.addAll(List.of("taskset", "-c", cpus));
        }
        command.addAll(List.of("/bin/sh", distribution.catalinaScript().toString(), "run"));
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(base.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(catalinaOutFile().toFile()));
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", jdk.home().toString());
        env.remove("JRE_HOME");
        env.put("CATALINA_HOME", distribution.home().toString());
        env.put("CATALINA_BASE", base.toString());
        env.put("CATALINA_OPTS", String.join(" ", opts));
        env.remove("JAVA_OPTS");
        env.remove("CATALINA_PID");
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + distribution.catalinaScript(), e);
        }
        Process started = process;
        forgetKillOnExit(); // a restart after stop(): the hook of the process before
        killOnExit = new Thread(() -> {
            started.descendants().forEach(ProcessHandle::destroyForcibly);
            started.destroyForcibly();
        }, "kill " + base.getFileName());
        Runtime.getRuntime().addShutdownHook(killOnExit);
        awaitStarted();
        return this;
    }

    /**
     * Started means Catalina logged the end of its start and every connector accepts. A listening port
     * alone proves nothing: Tomcat binds at init, before webapps and valves have started (and before a
     * start that fails).
     */
    private void awaitStarted() {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (true) {
            // The failures are read from the same text as the start: a connector that failed just before Catalina
            // logged its start would otherwise be missed by the read that ends the wait.
            String logged = catalinaOut();
            failIfAConnectorFailed(logged);
            if (logged.contains(STARTED) && ports.values().stream().allMatch(TomcatServer::accepts)) {
                return;
            }
            if (!process.isAlive()) {
                throw new TomcatStartException("Tomcat exited with status " + process.exitValue()
                        + " before it started; end of catalina.out:\n" + tail(), catalinaOut());
            }
            if (System.nanoTime() > deadline) {
                String out = catalinaOut();
                kill();
                throw new TomcatStartException("Tomcat did not start within " + startTimeout
                        + "; end of catalina.out:\n" + tail(out), out);
            }
            sleep(100);
        }
    }

    /**
     * Tomcat logs a connector that failed to initialize or start and goes on with the others, so a server can
     * "start" without one of its connectors, and one whose port another listener holds even looks started (CI: two
     * connectors drew one port; the second's MBean, of the same name, replaced the first's, and a test found no
     * connector on the port it had served a moment before).
     */
    private void failIfAConnectorFailed(String logged) {
        for (String failure : CONNECTOR_FAILURES) {
            if (logged.contains(failure)) {
                // The cause follows the line, and what the start does next (a valve that fails it names the
                // attribute again): give both a moment to be written before reading what the caller is handed.
                try {
                    process.waitFor(CONNECTOR_FAILURE_SETTLE.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                String out = catalinaOut();
                kill();
                throw new TomcatStartException("A connector failed to start (\"" + failure
                        + "\"); end of catalina.out:\n" + tail(out), out);
            }
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Stops Tomcat the way an init system does: SIGTERM runs Tomcat's shutdown hook, which stops the
     * connectors and webapps in order. Forcibly killed if that takes longer than 30 s.
     */
    public void stop() {
        closeJmx();
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            kill();
            Thread.currentThread().interrupt();
        }
    }

    /** Ends the process and anything it started, at once. */
    @Override
    public void close() {
        closeJmx();
        if (process != null && process.isAlive()) {
            stop();
        }
        kill();
        forgetKillOnExit();
    }

    private void forgetKillOnExit() {
        if (killOnExit != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(killOnExit);
            } catch (IllegalStateException shuttingDown) {
                // closed from another shutdown hook: ours runs too, and finds the process gone
            }
            killOnExit = null;
        }
    }

    private void kill() {
        if (process == null) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The pid of the Tomcat JVM ({@code catalina.sh run} execs java, so it is our child). */
    public long pid() {
        if (process == null) {
            throw new IllegalStateException("Not started");
        }
        return process.pid();
    }

    /** The port of the connector with this name. */
    public int port(String connectorName) {
        Integer port = ports.get(connectorName);
        if (port == null) {
            throw new IllegalArgumentException("No connector named " + connectorName + "; have " + ports.keySet());
        }
        return port;
    }

    public Path base() {
        return base;
    }

    public TomcatDistribution distribution() {
        return distribution;
    }

    public Jdk jdk() {
        return jdk;
    }

    /**
     * The files the controller's trace went to ({@link Builder#controlTrace()}), oldest first: one per day, so a run
     * across midnight has two. Complete once the server has stopped (the handler writes asynchronously).
     */
    public List<Path> controlTraceFiles() {
        try (var logs = Files.list(base.resolve("logs"))) {
            return logs.filter(f -> f.getFileName().toString().startsWith(ControlTraceLogging.FILE_PREFIX)).sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + base.resolve("logs"), e);
        }
    }

    /** Every line of the controller's trace so far ({@link #controlTraceFiles()}). */
    public List<String> controlTrace() {
        List<String> lines = new ArrayList<>();
        for (Path file : controlTraceFiles()) {
            try {
                lines.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        return lines;
    }

    /**
     * Writes the controller's trace ({@link #controlTraceFiles()}, in order) to {@code file}, replacing it, so that a
     * run keeps it once the server's directory is gone; after {@link #close()} for the whole of it. Writes nothing and
     * returns false when there is no trace (no {@link Builder#controlTrace()}, or no adaptive connector).
     */
    public boolean copyControlTraceTo(Path file) throws IOException {
        List<Path> traces = controlTraceFiles();
        if (traces.isEmpty()) {
            return false;
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (var out = Files.newOutputStream(file)) {
            for (Path trace : traces) {
                Files.copy(trace, out);
            }
        }
        return true;
    }

    public Path catalinaOutFile() {
        return base.resolve("logs/catalina.out");
    }

    /** Everything Tomcat has written to stdout/stderr so far. */
    public String catalinaOut() {
        try {
            return Files.isRegularFile(catalinaOutFile())
                    ? Files.readString(catalinaOutFile(), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last lines of catalina.out, for failure messages. */
    public String tail() {
        return tail(catalinaOut());
    }

    private static String tail(String text) {
        String[] lines = text.split("\n", -1);
        int from = Math.max(0, lines.length - TAIL_LINES);
        return String.join("\n", java.util.Arrays.asList(lines).subList(from, lines.length));
    }

    /** Tomcat's platform MBean server over local JMX; requires {@link Builder#jmx()}. */
    public MBeanServerConnection jmx() {
        if (jmxPort <= 0) {
            throw new IllegalStateException("JMX was not enabled on this server's builder");
        }
        try {
            if (jmxConnector == null) {
                JMXServiceURL url = new JMXServiceURL(
                        "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi");
                jmxConnector = JMXConnectorFactory.connect(url);
            }
            return jmxConnector.getMBeanServerConnection();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot connect to Tomcat's JMX on port " + jmxPort, e);
        }
    }

    private void closeJmx() {
        if (jmxConnector != null) {
            try {
                jmxConnector.close();
            } catch (IOException ignored) {
                // the server side is going away anyway
            }
            jmxConnector = null;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for Tomcat", e);
        }
    }

    @Override
    public String toString() {
        return "Tomcat " + distribution.version() + " on JDK " + jdk.feature() + " base " + base + " ports " + ports;
    }

    /** Describes a server; {@link #build()} writes its CATALINA_BASE. */
    public static final class Builder {

        private final TomcatDistribution distribution;
        private Path basesDir;
        private String name = "tomcat";
        private Jdk jdk = Jdk.current();
        private final List<ConnectorSpec> connectors = new ArrayList<>();
        private final StringBuilder serverListeners = new StringBuilder();
        private final StringBuilder engineXml = new StringBuilder();
        private final StringBuilder serviceXml = new StringBuilder();
        private final List<Path> libs = new ArrayList<>();
        private final List<Path> webapps = new ArrayList<>();
        private final Map<String, String> files = new LinkedHashMap<>();
        private final List<String> catalinaOpts = new ArrayList<>();
        private Duration startTimeout = Duration.ofSeconds(90);
        private boolean jmx;
        private boolean controlTrace;
        private String cpus;

        private Builder(TomcatDistribution distribution) {
            this.distribution = distribution;
            // Next to the unpacked distribution, i.e. inside the consuming module's target/.
            this.basesDir = distribution.home().getParent().resolve("bases");
        }

        /** Prefix of the CATALINA_BASE directory name, to tell instances apart in target/. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** The directory under which the CATALINA_BASE is made (default: next to the distribution). */
        public Builder basesDir(Path dir) {
            this.basesDir = dir;
            return this;
        }

        public Builder jdk(Jdk jdk) {
            this.jdk = jdk;
            return this;
        }

        public Builder connector(ConnectorSpec connector) {
            for (ConnectorSpec existing : connectors) {
                if (existing.name().equals(connector.name())) {
                    throw new IllegalArgumentException("Duplicate connector name " + connector.name());
                }
            }
            connectors.add(connector);
            return this;
        }

        /** A {@code <Listener className=...>} on the Server, e.g. Tomcat's OpenSSL lifecycle listener. */
        public Builder serverListener(String className) {
            serverListeners.append("  <Listener className=\"").append(Xml.escape(className)).append("\"/>\n");
            return this;
        }

        /** Raw XML placed inside {@code <Service>} before the connectors, e.g. an {@code <Executor .../>} they share. */
        public Builder serviceXml(String xml) {
            serviceXml.append("    ").append(xml).append('\n');
            return this;
        }

        /** Raw XML placed inside {@code <Engine>} before the Host, e.g. a {@code <Valve .../>}. */
        public Builder engineXml(String xml) {
            engineXml.append("      ").append(xml).append('\n');
            return this;
        }

        /** A jar copied into CATALINA_BASE/lib (Tomcat's common class loader). */
        public Builder lib(Path jar) {
            libs.add(jar);
            return this;
        }

        /** A WAR file or an exploded webapp directory, deployed under its file name. */
        public Builder webapp(Path warOrDirectory) {
            webapps.add(warOrDirectory);
            return this;
        }

        /** A text file written into CATALINA_BASE, e.g. {@code file("webapps/ROOT/index.html", "ok")}. */
        public Builder file(String relativePath, String content) {
            files.put(relativePath, content);
            return this;
        }

        /** Added to CATALINA_OPTS, e.g. {@code -Xmx256m}. */
        public Builder catalinaOpt(String option) {
            catalinaOpts.add(option);
            return this;
        }

        /**
         * The tlsadmit adaptive controller's line per control period into {@code logs/}, read with
         * {@link TomcatServer#controlTrace()} ({@link ControlTraceLogging}); applied to {@code conf/logging.properties}
         * after any {@link #file} written there.
         */
        public Builder controlTrace() {
            this.controlTrace = true;
            return this;
        }

        /** Remote JMX on a free loopback port without authentication, read through {@link TomcatServer#jmx()}. */
        public Builder jmx() {
            this.jmx = true;
            return this;
        }

        /**
         * Runs the server on these CPUs ({@code taskset -c}, e.g. {@code 0} or {@code 0-1}) from its start: what
         * it does before it reports started (deploying, warming up) then runs on the CPUs it will serve on, as
         * in a container. {@link CpuPinning#pin} after the start moves it later.
         */
        public Builder cpus(String cpuList) {
            this.cpus = cpuList;
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** Writes a fresh CATALINA_BASE and picks ports; the server is not started yet. */
        public TomcatServer build() {
            if (connectors.isEmpty()) {
                throw new IllegalStateException("A server needs at least one connector");
            }
            Path base = basesDir.resolve(name + "-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet())
                    .toAbsolutePath();
            Map<String, Integer> ports = new LinkedHashMap<>();
            for (ConnectorSpec connector : connectors) {
                ports.put(connector.name(), FreePort.pick());
            }
            int jmxPort = jmx ? FreePort.pick() : 0;
            try {
                deleteTree(base);
                for (String dir : List.of("conf", "lib", "logs", "temp", "webapps", "work")) {
                    Files.createDirectories(base.resolve(dir));
                }
                copyTree(distribution.home().resolve("conf"), base.resolve("conf"));
                Files.writeString(base.resolve("conf/server.xml"), serverXml(ports), StandardCharsets.UTF_8);
                for (Path lib : libs) {
                    Files.copy(lib, base.resolve("lib").resolve(lib.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
                for (Path webapp : webapps) {
                    Path target = base.resolve("webapps").resolve(webapp.getFileName());
                    if (Files.isDirectory(webapp)) {
                        copyTree(webapp, target);
                    } else {
                        Files.copy(webapp, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                for (Map.Entry<String, String> file : files.entrySet()) {
                    Path target = base.resolve(file.getKey()).normalize();
                    if (!target.startsWith(base)) {
                        throw new IllegalArgumentException("File outside CATALINA_BASE: " + file.getKey());
                    }
                    Files.createDirectories(target.getParent());
                    Files.writeString(target, file.getValue(), StandardCharsets.UTF_8);
                }
                if (controlTrace) {
                    Path logging = base.resolve("conf/logging.properties");
                    Files.writeString(logging, ControlTraceLogging.addTo(Files.readString(logging, StandardCharsets.UTF_8)),
                            StandardCharsets.UTF_8);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot prepare CATALINA_BASE " + base, e);
            }
            return new TomcatServer(this, base, ports, jmxPort);
        }

        private String serverXml(Map<String, Integer> ports) {
            StringBuilder xml = new StringBuilder();
            xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            xml.append("<!-- Written by io.tlsadmit.testing.TomcatServer -->\n");
            // No shutdown port: the test owns the process and stops it with a signal.
            xml.append("<Server port=\"-1\" shutdown=\"SHUTDOWN\">\n");
            xml.append("  <Listener className=\"org.apache.catalina.startup.VersionLoggerListener\"/>\n");
            xml.append(serverListeners);
            xml.append("  <Service name=\"Catalina\">\n");
            xml.append(serviceXml);
            for (ConnectorSpec connector : connectors) {
                xml.append(connector.toXml(ports.get(connector.name())));
            }
            xml.append("    <Engine name=\"Catalina\" defaultHost=\"localhost\">\n");
            xml.append(engineXml);
            xml.append("      <Host name=\"localhost\" appBase=\"webapps\" unpackWARs=\"true\" autoDeploy=\"false\"/>\n");
            xml.append("    </Engine>\n");
            xml.append("  </Service>\n");
            xml.append("</Server>\n");
            return xml.toString();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.REPLACE_EXISTING);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
