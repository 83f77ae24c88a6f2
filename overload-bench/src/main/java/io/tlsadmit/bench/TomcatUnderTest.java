package io.tlsadmit.bench;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.CpuPinning;
import io.tlsadmit.testing.Jdk;
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
import java.util.Locale;

/** The real Tomcat distribution with the gate's drop-in jar (valve/target/tlsadmit-tomcat.jar), or stock for "off". */
final class TomcatUnderTest implements ServerUnderTest {
    private static final String WORK_JSP = String.join("\n",
            "<%@ page session=\"false\" contentType=\"text/plain\" import=\"java.security.MessageDigest\" %><%",
            "  String p = request.getParameter(\"n\");",
            "  int n = p == null ? 0 : Integer.parseInt(p);",
            "  byte[] block = new byte[4096];",
            "  MessageDigest sha = MessageDigest.getInstance(\"SHA-256\");",
            "  for (int i = 0; i < n; i++) { sha.update(block); block[i % 4096] = sha.digest()[0]; }",
            "  out.print(\"ok \" + block[0]);",
            "%>");

    private final BenchOptions options;
    private final Path root;
    private final TomcatDistribution distribution;
    private final TestKeystore keystore;
    private final Jdk jdk;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    TomcatUnderTest(BenchOptions options, Path root, TestKeystore keystore, Jdk jdk) {
        this.options = options;
        this.root = root;
        this.distribution = TomcatDistribution.fromBuild();
        this.keystore = keystore;
        this.jdk = jdk;
    }

    @Override
    public String description() {
        return "Tomcat " + distribution.version() + " on JDK " + jdk.feature();
    }

    @Override
    public String requestPath(int workBlocks) {
        return "/work.jsp?n=" + workBlocks;
    }

    @Override
    public Running start(String mode, double capacity) throws Exception {
        ConnectorSpec tls = ConnectorSpec.https("tls", keystore)
                .sslHostConfig("protocols", options.tls().equals("1.3") ? "TLSv1.3" : "TLSv1.2")
                .attribute("maxThreads", "200")
                .attribute("connectionTimeout", Integer.toString(options.timeoutMillis()));
        TomcatServer.Builder builder = TomcatServer.builder(distribution)
                .name("overload-" + mode)
                .jdk(jdk)
                .connector(tls)
                .connector(ConnectorSpec.http("plain"))
                .file("webapps/ROOT/work.jsp", WORK_JSP)
                .catalinaOpt("-Xmx1g");
        if (!mode.equals("off")) {
            Path jar = root.resolve("valve/target/tlsadmit-tomcat.jar");
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(jar + " is missing: build the valve first (mvn -pl valve -am package)");
            }
            builder.lib(jar).engineXml("<Valve className=\"io.tlsadmit.tomcat.TlsAdmissionValve\"/>");
            tls.protocol("io.tlsadmit.tomcat.AdmissionNioProtocol").attribute("budget", mode);
            if (mode.equals("static")) {
                // the cap an operator would tune by hand: the measured knee
                tls.attribute("maxFullHandshakesPerSecond", String.format(Locale.ROOT, "%.0f", Math.max(1, capacity)))
                        .attribute("fullHandshakeBurst", Long.toString(staticBurst(capacity)));
            }
        }
        if (mode.equals("adaptive")) {
            builder.controlTrace();
        }
        TomcatServer tomcat = builder.build().start();
        CpuPinning.pin(tomcat.pid(), "0");
        warmJsp(tomcat);
        return new Traced(tomcat);
    }

    /** A started Tomcat that writes its controller's trace where it was asked to once it has stopped. */
    private static final class Traced implements Running {
        private final TomcatServer tomcat;
        private volatile Path traceCopy;

        Traced(TomcatServer tomcat) {
            this.tomcat = tomcat;
        }

        @Override
        public long pid() {
            return tomcat.pid();
        }

        @Override
        public int tlsPort() {
            return tomcat.port("tls");
        }

        @Override
        public URI metrics() {
            return URI.create("http://127.0.0.1:" + tomcat.port("plain") + "/tlsadmit/metrics");
        }

        @Override
        public void keepControlTraceAt(Path file) {
            this.traceCopy = file;
        }

        @Override
        public void close() {
            tomcat.close();
            Path to = traceCopy;
            if (to != null) {
                try {
                    tomcat.copyControlTraceTo(to);
                } catch (IOException | UncheckedIOException e) {
                    // the run's figures matter more than the trace that explains them
                    System.err.println("control trace not copied to " + to + ": " + e);
                }
            }
        }
    }

    /** The static budget's burst for a cap of {@code capacity}/s: 5 % of a second's worth, at least 1. */
    static long staticBurst(double capacity) {
        return Math.max(1, Math.round(capacity * 0.05));
    }

    /** Compiles the JSP before measuring, over the plain connector. */
    private void warmJsp(TomcatServer tomcat) {
        URI uri = URI.create("http://127.0.0.1:" + tomcat.port("plain") + requestPath(1));
        for (int i = 0; i < 3; i++) {
            try {
                http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                System.out.println("warm-up request failed: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
