package io.tlsadmit.experiment.server;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.CpuPinning;
import io.tlsadmit.testing.FreePort;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One leg's server: the real Tomcat distribution with {@code rubis.war}, its TLS front (Tomcat's own connector,
 * the gated one, or HAProxy) pinned to CPU 0, and a plain connector for health checks and the gate's metrics.
 */
public final class RubisServer implements AutoCloseable {

    public static final String SERVER_CPUS = "0";

    private static final String GATE_PROTOCOL = "io.tlsadmit.tomcat.AdmissionNioProtocol";
    private static final String GATE_VALVE = "<Valve className=\"io.tlsadmit.tomcat.TlsAdmissionValve\"/>";

    private final Mode mode;
    private final TomcatServer tomcat;
    private final Haproxy haproxy;
    private volatile Path controlTraceCopy;
    /**
     * One client for every scrape: the CPU change and the flash crowd scrape every 100 ms, and a new client per
     * request (its own selector thread) took longer than that on a loaded machine.
     */
    private final HttpClient scraper = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private RubisServer(Mode mode, TomcatServer tomcat, Haproxy haproxy) {
        this.mode = mode;
        this.tomcat = tomcat;
        this.haproxy = haproxy;
    }

    /** What every leg of one run shares: the distribution, the packaged files, the key and the database. */
    public record Setup(TomcatDistribution distribution, TestKeystore keystore, String tls, Path war,
            Path gateJar, Path mariadbContext, String jdbcUrl, double scale, int keepAliveMillis,
            int connectionsPerNewUser, String serverCpus) {

        /** On the study's one server CPU, {@link #SERVER_CPUS}. */
        public Setup(TomcatDistribution distribution, TestKeystore keystore, String tls, Path war, Path gateJar,
                Path mariadbContext, String jdbcUrl, double scale, int keepAliveMillis, int connectionsPerNewUser) {
            this(distribution, keystore, tls, war, gateJar, mariadbContext, jdbcUrl, scale, keepAliveMillis,
                    connectionsPerNewUser, SERVER_CPUS);
        }

        /** The same servers on other CPUs ({@code taskset} list: {@code 0}, {@code 0-1}). */
        public Setup withServerCpus(String cpus) {
            return new Setup(distribution, keystore, tls, war, gateJar, mariadbContext, jdbcUrl, scale,
                    keepAliveMillis, connectionsPerNewUser, cpus);
        }

        public boolean h2() {
            return jdbcUrl == null;
        }

        /** The same servers over another TLS version. */
        public Setup withTls(String version) {
            return new Setup(distribution, keystore, version, war, gateJar, mariadbContext, jdbcUrl, scale,
                    keepAliveMillis, connectionsPerNewUser, serverCpus);
        }
    }

    /**
     * Starts the server for a mode. {@code staticBudget} is the static gate's rate, {@code haproxyRate} the HAProxy
     * mode's ({@link Mode#rateSetting()}: {@code maxsslrate}, 0 for no limit; or the new connections or new-looking
     * hellos admitted per second); both are ignored by the other modes. HAProxy runs one thread, for the server's
     * one CPU.
     */
    public static RubisServer start(Mode mode, Setup setup, double staticBudget, int haproxyRate) {
        return start(mode, setup, staticBudget, haproxyRate, 1);
    }

    /** As {@link #start(Mode, Setup, double, int)}, HAProxy with {@code haproxyThreads} threads. */
    public static RubisServer start(Mode mode, Setup setup, double staticBudget, int haproxyRate,
            int haproxyThreads) {
        return start(mode, setup, staticBudget, haproxyRate, haproxyThreads, Map.of());
    }

    /**
     * As {@link #start(Mode, Setup, double, int, int)}, with {@code gateAttributes} on a gated mode's connector
     * (ignored by the others): what a run sets beyond the mode's own settings, e.g. the application warm-up.
     */
    public static RubisServer start(Mode mode, Setup setup, double staticBudget, int haproxyRate,
            int haproxyThreads, Map<String, String> gateAttributes) {
        String protocols = setup.tls().equals("1.2") ? "TLSv1.2" : "TLSv1.3";
        TomcatServer.Builder builder = TomcatServer.builder(setup.distribution())
                .name("experiment-" + mode.label())
                .connector(ConnectorSpec.http("plain").attribute("maxThreads", "200"))
                .webapp(setup.war())
                .catalinaOpt("-Xmx1g")
                .catalinaOpt("-Drubis.scale=" + setup.scale())
                // on its CPUs from the start: deploying and any warm-up at start run where it will serve
                .cpus(setup.serverCpus())
                .startTimeout(Duration.ofSeconds(300));
        if (!setup.h2()) {
            builder.file("conf/Catalina/localhost/rubis.xml", read(setup.mariadbContext()))
                    .catalinaOpt("-Drubis.jdbc.url=" + setup.jdbcUrl())
                    .catalinaOpt("-Drubis.autoload=false");
        }
        if (!mode.haproxy()) {
            ConnectorSpec tls = ConnectorSpec.https("tls", setup.keystore())
                    .attribute("maxThreads", "200")
                    .attribute("connectionTimeout", "20000")
                    // the study's workload: idle users' connections close, and they come back resuming
                    .attribute("keepAliveTimeout", Integer.toString(setup.keepAliveMillis()))
                    .sslHostConfig("protocols", protocols);
            if (mode.gated()) {
                // newSessionPolicy off: RUBiS pages carry no HTTP session, so the policy's 503s would be
                // counted as replies; the experiment measures the TLS gate itself
                tls.protocol(GATE_PROTOCOL).attribute("budget", mode.budget()).attribute("newSessionPolicy", "off");
                mode.gateSettings().forEach(tls::attribute);
                gateAttributes.forEach(tls::attribute);
                if (setup.connectionsPerNewUser() > 0) {
                    tls.attribute("connectionsPerNewUser", Integer.toString(setup.connectionsPerNewUser()));
                }
                if (mode == Mode.STATIC) {
                    String rate = String.format(Locale.ROOT, "%.1f", Math.max(1, staticBudget));
                    tls.attribute("maxFullHandshakesPerSecond", rate)
                            .attribute("fullHandshakeBurst", Long.toString(Math.max(1, Math.round(staticBudget))));
                }
                builder.lib(setup.gateJar()).engineXml(GATE_VALVE).controlTrace();
            }
            builder.connector(tls);
        }
        TomcatServer tomcat = builder.build().start();
        Haproxy haproxy = null;
        try {
            awaitHealthy(tomcat); // already on its CPUs: started under taskset (Builder.cpus), threads inherit it
            if (mode.haproxy()) {
                Path dir = tomcat.base().resolve("haproxy");
                haproxy = Haproxy.start(dir, new Haproxy.Config(mode, Haproxy.certificateAndKey(dir, setup.keystore()),
                        Haproxy.writeTicketKeys(dir.resolve("tls-ticket-keys")), setup.tls(), FreePort.pick(),
                        tomcat.port("plain"), haproxyRate, setup.keepAliveMillis(), haproxyThreads));
                CpuPinning.pin(haproxy.pid(), setup.serverCpus());
            }
            return new RubisServer(mode, tomcat, haproxy);
        } catch (IOException e) {
            tomcat.close();
            throw new UncheckedIOException("cannot configure haproxy: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            tomcat.close();
            throw e;
        }
    }

    public Mode mode() {
        return mode;
    }

    public String baseUrl() {
        return "https://127.0.0.1:" + (haproxy != null ? haproxy.port() : tomcat.port("tls"));
    }

    /** The gate's Prometheus text, or empty where there is no gate. */
    public String metricsUrl() {
        return mode.gated() ? "http://127.0.0.1:" + tomcat.port("plain") + "/tlsadmit/metrics" : "";
    }

    /** The gated connector's port, which ends its {@code connector} label in the gate's metrics. */
    public int gatedPort() {
        if (!mode.gated()) {
            throw new IllegalStateException(mode.label() + " has no gate");
        }
        return tomcat.port("tls");
    }

    public long tomcatPid() {
        return tomcat.pid();
    }

    /** Every process that does the server's work: Tomcat, and HAProxy when it terminates TLS. */
    public List<Long> pids() {
        List<Long> pids = new ArrayList<>(List.of(tomcat.pid()));
        if (haproxy != null) {
            pids.add(haproxy.pid());
        }
        return pids;
    }

    public double cpuSeconds() {
        double total = 0;
        for (long pid : pids()) {
            total += ProcessCpu.seconds(pid);
        }
        return total;
    }

    public void pin(String cpus) {
        for (long pid : pids()) {
            CpuPinning.pin(pid, cpus);
        }
    }

    public String scrapeMetrics() {
        if (metricsUrl().isEmpty()) {
            return "";
        }
        try {
            return scraper.send(HttpRequest.newBuilder(URI.create(metricsUrl())).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /**
     * Where to copy the controller's trace when the server closes (a gated mode's; the static budget writes none).
     * A trace that cannot be copied is reported, not thrown: the run's figures matter more.
     */
    public void keepControlTraceAt(Path file) {
        this.controlTraceCopy = file;
    }

    @Override
    public void close() {
        if (haproxy != null) {
            haproxy.close();
        }
        tomcat.close();
        Path to = controlTraceCopy;
        if (to != null && mode.gated()) {
            try {
                tomcat.copyControlTraceTo(to);
            } catch (IOException | UncheckedIOException e) {
                System.err.println("control trace not copied to " + to + ": " + e);
            }
        }
    }

    private static void awaitHealthy(TomcatServer tomcat) {
        String url = "http://127.0.0.1:" + tomcat.port("plain") + "/rubis/health";
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> health = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (health.statusCode() == 200) {
                    return;
                }
                last = health.statusCode() + " " + health.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IllegalStateException("RUBiS did not become healthy: " + last + "\n" + tomcat.tail());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("no " + file + ": build rubis-app (mvn -pl rubis-app -am package)", e);
        }
    }
}
