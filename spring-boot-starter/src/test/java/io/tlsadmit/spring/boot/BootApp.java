package io.tlsadmit.spring.boot;

import io.tlsadmit.testing.FreePort;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.tomcat.AdmissionNioProtocol;
import io.tlsadmit.tomcat.GateMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMX;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.apache.catalina.connector.Connector;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link GatedTestApplication} started for real, as {@code java -jar} would: embedded Tomcat on
 * 127.0.0.1 and a free port, Actuator on another (plain HTTP, so scraping does not need a TLS
 * handshake the budget may refuse).
 */
final class BootApp implements AutoCloseable {

    static final TestKeystore KEYSTORE = TestKeystore.create(Path.of("target", "keystores"));

    private final ConfigurableApplicationContext context;
    private final int port;
    private final int managementPort;

    private BootApp(ConfigurableApplicationContext context, int port, int managementPort) {
        this.context = context;
        this.port = port;
        this.managementPort = managementPort;
    }

    /** TLS from an SSL bundle ({@code server.ssl.bundle}), as Spring Boot recommends. */
    static List<String> sslBundle() {
        String location = "file:" + KEYSTORE.path();
        return List.of("spring.ssl.bundle.jks.test.keystore.location=" + location,
                "spring.ssl.bundle.jks.test.keystore.password=" + KEYSTORE.password(),
                "spring.ssl.bundle.jks.test.keystore.type=PKCS12",
                "server.ssl.bundle=test");
    }

    /** TLS from the plain {@code server.ssl.key-store*} properties. */
    static List<String> plainKeystore() {
        return List.of("server.ssl.key-store=file:" + KEYSTORE.path(),
                "server.ssl.key-store-password=" + KEYSTORE.password(),
                "server.ssl.key-store-type=PKCS12");
    }

    static BootApp start(List<String> tls, String... properties) {
        int port = FreePort.pick();
        int managementPort = FreePort.pick();
        List<String> all = new ArrayList<>(List.of("server.address=127.0.0.1", "server.port=" + port,
                "management.server.address=127.0.0.1", "management.server.port=" + managementPort,
                "management.server.ssl.enabled=false",
                "management.endpoints.web.exposure.include=health,prometheus", "spring.main.banner-mode=off"));
        all.addAll(tls);
        all.addAll(List.of(properties));
        // Command-line arguments, not default properties: they win over everything, as --x=y would.
        String[] args = all.stream().map(p -> "--" + p).toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(GatedTestApplication.class).run(args);
        return new BootApp(context, port, managementPort);
    }

    int port() {
        return port;
    }

    ConfigurableApplicationContext context() {
        return context;
    }

    Connector connector() {
        return ((TomcatWebServer) ((WebServerApplicationContext) context).getWebServer()).getTomcat().getConnector();
    }

    /** The gate's MXBean, as an operator's JMX console sees it. */
    GateMXBean gate() {
        try {
            ObjectName name = new ObjectName(AdmissionNioProtocol.JMX_DOMAIN + ":type=Gate,connector="
                    + ((AdmissionNioProtocol) connector().getProtocolHandler()).getName());
            return JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(), name, GateMXBean.class);
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code /actuator/prometheus} of the application's registry. */
    PrometheusScrape prometheus() {
        return PrometheusScrape.parse(get("http://127.0.0.1:" + managementPort + "/actuator/prometheus"));
    }

    /** A request over HTTPS with a new JDK client (a new TLS session), trusting the test certificate. */
    HttpResponse<String> https(HttpClient.Version version, String path) {
        HttpClient client = HttpClient.newBuilder().version(version).sslContext(KEYSTORE.clientContext("TLSv1.3"))
                .connectTimeout(Duration.ofSeconds(5)).build();
        try {
            return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String get(String url) {
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        context.close();
    }
}
