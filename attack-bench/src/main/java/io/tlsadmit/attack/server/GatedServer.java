package io.tlsadmit.attack.server;

import io.tlsadmit.attack.measure.CpuTime;
import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.CpuPinning;
import io.tlsadmit.testing.Jdk;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A fresh real Tomcat with one gated TLS connector and the valve, pinned to CPU 0.
 *
 * <p>The gate's metrics are read through a second, plain-HTTP connector on 127.0.0.1: the valve sits in
 * the Engine and answers on any connector, and scraping over the gated connector would itself spend
 * budget tokens (a full handshake per new connection) and show up in the very counters we read.
 */
public final class GatedServer implements AutoCloseable {
    public static final String GATED = "gated";
    private static final String METRICS = "metrics";
    private static final String PROTOCOL = "io.tlsadmit.tomcat.AdmissionNioProtocol";
    private static final String VALVE = "<Valve className=\"io.tlsadmit.tomcat.TlsAdmissionValve\"/>";
    /** Initialises OpenSSL (FFM) for the connectors that use it, as Tomcat's own server.xml does. */
    private static final String OPENSSL_LISTENER = "org.apache.catalina.core.OpenSSLLifecycleListener";

    private final TomcatServer tomcat;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private GatedServer(TomcatServer tomcat) {
        this.tomcat = tomcat;
    }

    public static GatedServer start(String name, TomcatDistribution distribution, TestKeystore keystore, Path gateJar,
                                    ScenarioAttributes settings, TlsEngine engine, Jdk jdk) {
        ConnectorSpec gated = ConnectorSpec.https(GATED, keystore)
                .protocol(PROTOCOL)
                .sslHostConfig("protocols", "TLSv1.2+TLSv1.3");
        // more workers than the test default of 20: the probes must not queue behind attack connections
        // for want of threads, only for want of CPU
        gated.attribute("maxThreads", "200");
        settings.attributes().forEach(gated::attribute);
        if (engine.implementation() != null) {
            gated.attribute("sslImplementationName", engine.implementation());
        }
        TomcatServer.Builder builder = TomcatServer.builder(distribution);
        if (engine.isOpenSsl()) {
            builder.serverListener(OPENSSL_LISTENER);
        }
        TomcatServer tomcat = builder
                .name(name)
                .jdk(jdk)
                .connector(gated)
                .connector(ConnectorSpec.http(METRICS))
                .engineXml(VALVE)
                .lib(gateJar)
                .file("webapps/ROOT/index.html", "attack-bench\n")
                .catalinaOpt("-Xmx512m")
                .build();
        tomcat.start();
        try {
            CpuPinning.pin(tomcat.pid(), "0");
        } catch (RuntimeException e) {
            tomcat.close();
            throw e;
        }
        return new GatedServer(tomcat);
    }

    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", tomcat.port(GATED));
    }

    public int port() {
        return tomcat.port(GATED);
    }

    public long pid() {
        return tomcat.pid();
    }

    public CpuTime cpu() {
        return CpuTime.of(tomcat.pid());
    }

    public String metricsText() {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + tomcat.port(METRICS) + "/tlsadmit/metrics"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("metrics answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot scrape the gate's metrics", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public PrometheusScrape scrape() {
        return PrometheusScrape.parse(metricsText());
    }

    public CounterSnapshot counters() {
        return CounterSnapshot.parse(metricsText());
    }

    @Override
    public void close() {
        tomcat.close();
    }
}
