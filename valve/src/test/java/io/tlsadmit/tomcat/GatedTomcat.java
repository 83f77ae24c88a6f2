package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import io.tlsadmit.testing.TomcatStartException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Hashtable;
import java.util.Set;
import javax.management.JMException;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/** How the integration tests set up the real Tomcat with the gate jar, and talk to it. */
final class GatedTomcat {

    static final String PROTOCOL = AdmissionNioProtocol.class.getName();
    static final String VALVE = TlsAdmissionValve.class.getName();
    /** Prints the request attributes the valve sets, so a client can see them. */
    static final String ATTRIBUTES_JSP = "<%@ page contentType=\"text/plain\" %>"
            + "verdict=<%= request.getAttribute(\"io.tlsadmit.verdict\") %>\n"
            + "handshake=<%= request.getAttribute(\"io.tlsadmit.handshake\") %>\n";

    private GatedTomcat() {
    }

    static TomcatDistribution distribution() {
        return TomcatDistribution.fromBuild();
    }

    static Path gateJar() {
        Path jar = Path.of(System.getProperty("tlsadmit.gate.jar", "target/tlsadmit-tomcat.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("No gate jar at " + jar + ": run the integration tests with mvn verify");
        }
        return jar;
    }

    static TestKeystore keystore(TomcatDistribution distribution) {
        return TestKeystore.create(distribution.home().getParent().resolve("keystores"));
    }

    /**
     * A keystore with a key of its own, in a new directory: {@link TestKeystore} reuses what it finds in a directory,
     * and a test that overwrites a keystore file or needs a second certificate must not share it.
     */
    static TestKeystore freshKeystore(TomcatDistribution distribution) {
        try {
            return TestKeystore.create(Files.createTempDirectory(distribution.home().getParent(), "keystore-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A TLS connector with the gate and a static budget (these tests count exact rates), TLS 1.2 and
     * 1.3, and a short connectionTimeout for the silent-client test.
     */
    static ConnectorSpec gated(String name, TestKeystore keystore, String rate, String burst) {
        return ConnectorSpec.https(name, keystore)
                .protocol(PROTOCOL)
                .attribute("budget", "static")
                .attribute("maxFullHandshakesPerSecond", rate)
                .attribute("fullHandshakeBurst", burst)
                .attribute("connectionTimeout", "2000")
                .sslHostConfig("protocols", "TLSv1.2+TLSv1.3");
    }

    static TomcatServer.Builder base(TomcatDistribution distribution, String name) {
        return TomcatServer.builder(distribution)
                .name(name)
                .lib(gateJar())
                .file("webapps/ROOT/index.html", "gated\n")
                .file("webapps/ROOT/attributes.jsp", ATTRIBUTES_JSP)
                .catalinaOpt("-Xmx256m")
                .catalinaOpt("-XX:TieredStopAtLevel=1")
                .jmx();
    }

    /** Starts a server that must fail to start, and returns how it failed (with all it logged). */
    static TomcatStartException failedStart(TomcatServer.Builder builder) {
        TomcatServer broken = builder.startTimeout(Duration.ofSeconds(40)).build();
        try (broken) {
            return assertThrows(TomcatStartException.class, broken::start);
        }
    }

    /** The gate MBean of the connector on this port. */
    static GateMXBean gate(TomcatServer server, int port) {
        try {
            MBeanServerConnection jmx = server.jmx();
            Set<ObjectName> names = jmx.queryNames(new ObjectName(AdmissionNioProtocol.JMX_DOMAIN + ":type=Gate,*"), null);
            for (ObjectName name : names) {
                if (ObjectName.unquote(name.getKeyProperty("connector")).endsWith("-" + port)) {
                    return JMX.newMXBeanProxy(jmx, name, GateMXBean.class);
                }
            }
            throw new IllegalStateException("No gate MBean for port " + port + " among " + names);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Tomcat's own MBean of this {@code type} ({@code Connector}, {@code ProtocolHandler}) for the connector on
     * {@code port}, found by the port it listens on (the tests configure 0, so the names say {@code auto-N}).
     */
    static ObjectName tomcatMBean(TomcatServer server, String type, int port) throws IOException, JMException {
        MBeanServerConnection jmx = server.jmx();
        for (ObjectName connector : jmx.queryNames(new ObjectName("Catalina:type=Connector,*"), null)) {
            if (Integer.valueOf(port).equals(jmx.getAttribute(connector, "localPort"))) {
                Hashtable<String, String> keys = new Hashtable<>(connector.getKeyPropertyList());
                keys.put("type", type); // the other keys (port, address) name both alike
                return new ObjectName(connector.getDomain(), keys);
            }
        }
        throw new IllegalStateException("No Connector MBean listens on " + port);
    }

    /** Sets a connector's budget (rate and burst) through its gate MBean. */
    static void budget(GateMXBean gate, double rate, long burst) {
        gate.setFullHandshakeBurst(burst);
        gate.setMaxFullHandshakesPerSecond(rate);
    }

    static HttpResponse<String> get(TestKeystore keystore, int port, String path) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().sslContext(keystore.clientContext("TLSv1.3"))
                .connectTimeout(Duration.ofSeconds(5)).build();
        return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
