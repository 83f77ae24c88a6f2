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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the compose stack's tomcat and rubis-data containers do, on this machine: the loader script fills a fresh
 * MariaDB database with rubis-datagen, then the real Tomcat distribution runs the image's configuration (the
 * committed server.xml with only its ports moved to free loopback ones, setenv.sh, the gate jar, rubis.war with its
 * MariaDB context, node.jsp, the test keystore where the image's would be). Its live scrape is the reference for
 * the dashboard's metric names.
 */
class DeployedTomcatTest {

    private static final String DATABASE = "deploytests_rubis";

    private static TomcatServer tomcat;
    private static TestKeystore keystore;
    private static Path datagen;

    @BeforeAll
    static void loadRubisAndStartTheImagesTomcatConfiguration() throws IOException {
        TomcatDistribution distribution = TomcatDistribution.fromBuild();
        Path artifacts = distribution.home().getParent().resolve("artifacts");
        datagen = BuiltArtifact.RUBIS_DATAGEN.copyInto(artifacts);
        Command fresh = Command.run("mariadb", "-uroot", "-h127.0.0.1", "-P3306", "-e",
                "DROP DATABASE IF EXISTS " + DATABASE + "; CREATE DATABASE " + DATABASE);
        assertTrue(fresh.succeeded(), () -> "MariaDB on 127.0.0.1:3306 (bin/prerequisites starts it): " + fresh);
        Command load = loadRubis();
        assertTrue(load.succeeded() && load.output().contains("load-rubis: loading RUBiS"), load::toString);

        keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"));
        ServerXml deployed = ServerXml.load();
        // these connectors only reserve two free ports; the committed server.xml replaces the one written for them
        tomcat = TomcatServer.builder(distribution)
                .name("deployed")
                .connector(ConnectorSpec.http("plain"))
                .connector(ConnectorSpec.https("tls", keystore))
                .lib(BuiltArtifact.GATE_JAR.copyInto(artifacts))
                .webapp(BuiltArtifact.RUBIS_WAR.copyInto(artifacts))
                .file("conf/Catalina/localhost/rubis.xml", Repository.read("rubis-app/target/rubis-mariadb.xml"))
                .file("bin/setenv.sh", Repository.read("deploy/tomcat/setenv.sh"))
                .file("webapps/ROOT/node.jsp", Repository.read("deploy/tomcat/node.jsp"))
                .catalinaOpt("-Xmx256m")
                .catalinaOpt("-Dtlsadmit.node=deployed")
                // what compose's environment gives setenv.sh, pointed at the local database
                .catalinaOpt("-Drubis.jdbc.url=jdbc:mariadb://127.0.0.1:3306/" + DATABASE)
                .catalinaOpt("-Drubis.jdbc.user=root")
                .catalinaOpt("-Drubis.jdbc.password=")
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
        Command.run("mariadb", "-uroot", "-h127.0.0.1", "-P3306", "-e", "DROP DATABASE IF EXISTS " + DATABASE);
    }

    @Test
    void loaderLeavesALoadedDatabaseAloneSoTheStackCanRestart() {
        Command again = loadRubis();
        assertTrue(again.succeeded(), again::toString);
        assertTrue(again.output().contains("already holds 1000 users; nothing to load"), again::toString);
    }

    @Test
    void composeHealthcheckSeesRubisUpOnThePlainConnector() {
        List<?> test = (List<?>) ComposeFile.map(ComposeFile.load().service("tomcat"), "healthcheck").get("test");
        assertEquals(List.of("CMD", "bash", "-c"), test.subList(0, 3));
        String script = test.get(3).toString();
        int plainPort = Integer.parseInt(ServerXml.load().plainConnector().getAttribute("port"));
        assertTrue(script.contains("/dev/tcp/127.0.0.1/" + plainPort + " "), script);
        Command check = Command.run("bash", "-c", script.replace("/dev/tcp/127.0.0.1/" + plainPort + " ",
                "/dev/tcp/127.0.0.1/" + tomcat.port("plain") + " "));
        assertTrue(check.succeeded(), check::toString);
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
    void rubisAnswersOverTheGatedConnector() {
        OpenSslClient.Result result = OpenSslClient.to(tomcat.port("tls"), keystore).path("/rubis/health").run();
        assertEquals(200, result.httpStatus(), result::output);
        assertTrue(result.output().contains("status: UP"), result::output);
    }

    @Test
    void everyMetricTheDashboardAndTheAlertsReadIsExportedByTheValve() throws Exception {
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
        Set<String> unknown = new TreeSet<>(AlertRules.metricNames());
        unknown.removeAll(exported);
        assertTrue(unknown.isEmpty(), () -> "the alert rules read metrics the valve does not export: " + unknown);
        // the dashboard's Connector variable selects by this label: a series without it could not be told apart;
        // the one exception is the process's own threads' wait for a CPU, which belongs to no connector
        for (String line : scrape.body().split("\n")) {
            if (line.startsWith("tlsadmit_") && !line.startsWith(Dashboard.PROCESS_METRIC + " ")) {
                assertTrue(line.contains("connector=\""), "a series without its connector: " + line);
            }
        }
    }

    @Test
    void gatlingImageCommandRunsRubisUsersAgainstTheGatedConnector(@TempDir Path work) throws IOException {
        Path lib = work.resolve("lib");
        Command dependencies = GatlingImage.resolveDependencies(lib);
        assertTrue(dependencies.succeeded(), dependencies::toString);
        Files.copy(BuiltArtifact.LOADTESTS_JAR.copyInto(work), lib.resolve("loadtests.jar"));
        Files.copy(BuiltArtifact.TEST_SUPPORT_JAR.copyInto(work), lib.resolve("test-support.jar")); // as the Dockerfile

        Path results = work.resolve("results");
        String javaOptions = GatlingImage.composeJavaOptions(Map.of(
                        "LOAD_BASE_URL", "https://127.0.0.1:" + tomcat.port("tls"),
                        "LOAD_USERS_PER_SEC", "2",
                        "LOAD_DURATION_SEC", "2"))
                .replace("http://tomcat:8080/", "http://127.0.0.1:" + tomcat.port("plain") + "/")
                .replace("=/results/", "=" + results + "/")
                // short visits: this checks the command line and the wiring, not the server
                + " -Drubis.drainSec=15 -Drubis.thinkTimeScale=0.02 -Drubis.maxTransitions=6";
        Command run = Command.run(Map.of("JAVA_OPTS", javaOptions), GatlingImage.entrypoint(lib, results));
        assertTrue(run.succeeded(), run::toString);

        String summary = Files.readString(results.resolve("rubis/summary.json"));
        assertTrue(summary.contains("\"serverMetrics\": true"), summary);
        assertTrue(summary.contains("\"errorPages\": 0,"), summary);
        assertTrue(summary.contains("\"connectionsRefused\": 0,"), summary);
        assertTrue(!summary.contains("\"pages\": 0,"), summary);
    }

    private static Command loadRubis() {
        return Command.run(Map.of(
                        "RUBIS_DB_HOST", "127.0.0.1",
                        "RUBIS_DB_NAME", DATABASE,
                        "RUBIS_DB_USER", "root",
                        "RUBIS_DB_PASSWORD", "",
                        "RUBIS_SCALE", "0.001",
                        "RUBIS_DATAGEN_JAR", datagen.toString()),
                Repository.file("deploy/rubis-data/load-rubis.sh").toString());
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
