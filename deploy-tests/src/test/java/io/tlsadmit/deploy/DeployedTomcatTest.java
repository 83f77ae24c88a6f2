package io.tlsadmit.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The compose image's Tomcat configuration on the real Tomcat distribution: the committed server.xml (only its
 * ports moved to free loopback ones), the gate jar, the test keystore where the image's would be, and node.jsp.
 * Its live scrape is the reference for the dashboard's metric names.
 */
class DeployedTomcatTest {

    private static TomcatServer tomcat;
    private static TestKeystore keystore;

    @BeforeAll
    static void startTheComposeTomcatConfiguration() throws IOException {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"));
        ServerXml deployed = ServerXml.load();
        // these connectors only reserve two free ports; the committed server.xml replaces the one written for them
        tomcat = TomcatServer.builder(distribution)
                .name("deployed")
                .connector(ConnectorSpec.http("plain"))
                .connector(ConnectorSpec.https("tls", keystore))
                .lib(GateJar.completeCopy(distribution.home().getParent().resolve("gate-jar")))
                .file("webapps/ROOT/node.jsp", Repository.read("deploy/tomcat/node.jsp"))
                .catalinaOpt("-Xmx256m")
                .catalinaOpt("-Dtlsadmit.node=deployed")
                .build();
        String serverXml = Repository.read(ServerXml.PATH)
                .replace(portAttribute(deployed.plainConnector().getAttribute("port")),
                        portAttribute(tomcat.port("plain")) + " address=\"127.0.0.1\"")
                .replace(portAttribute(deployed.gatedConnector().getAttribute("port")),
                        portAttribute(tomcat.port("tls")) + " address=\"127.0.0.1\"");
        Files.writeString(tomcat.base().resolve("conf/server.xml"), serverXml);
        Path keystoreFile = tomcat.base().resolve("conf/tlsadmit/keystore.p12");
        Files.createDirectories(keystoreFile.getParent());
        Files.copy(keystore.path(), keystoreFile);
        tomcat.start();
    }

    @AfterAll
    static void stop() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    @Test
    void tlsConnectorRunsTheGateAndNodePageSaysHowTheConnectionWasAdmitted() {
        OpenSslClient.Result result = OpenSslClient.to(tomcat.port("tls"), keystore).path("/node.jsp").run();
        assertEquals(200, result.httpStatus(), result::output);
        assertTrue(result.output().contains("node=deployed\n"), result::output);
        assertTrue(result.output().contains("verdict=NEW\n"), result::output);
        assertTrue(result.output().contains("handshake=FULL\n"), result::output);
    }

    @Test
    void everyMetricTheDashboardQueriesIsExportedByTheValve() throws Exception {
        // one finished handshake, so that every counter family has been written at least once
        assertEquals(200, OpenSslClient.to(tomcat.port("tls"), keystore).path("/node.jsp").run().httpStatus());

        String metricsPath = ServerXml.load().valveAttribute("metricsPath", "/tlsadmit/metrics");
        HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + tomcat.port("plain") + metricsPath))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, scrape.statusCode(), scrape::body);

        Set<String> exported = sampleNames(scrape.body());
        Set<String> missing = new TreeSet<>(Dashboard.load().metricNames());
        missing.removeAll(exported);
        assertTrue(missing.isEmpty(), () -> "the dashboard queries metrics the valve does not export: " + missing
                + "\nexported: " + exported);
    }

    private static Set<String> sampleNames(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = line.indexOf('{');
            names.add(line.substring(0, end >= 0 ? end : line.indexOf(' ')));
        }
        return names;
    }

    private static String portAttribute(Object port) {
        return "port=\"" + port + "\"";
    }
}
