package io.tlsadmit.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.testing.ConnectorSpec;
import io.tlsadmit.testing.OpenSslClient;
import io.tlsadmit.testing.PrometheusScrape;
import io.tlsadmit.testing.TestKeystore;
import io.tlsadmit.testing.TomcatDistribution;
import io.tlsadmit.testing.TomcatServer;
import io.tlsadmit.testing.TomcatStartException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a pod of deploy/k8s/deployment.yaml runs, on this machine: the real Tomcat distribution with the gate jar,
 * the ConfigMap's server.xml (only its ports moved to free loopback ones), the image's setenv.sh, and the environment
 * the kubelet would give the container, worked out from the Deployment (the Downward API's CPU request in
 * millicores, the pod name, the keystore password from its Secret). The ${...} in server.xml must come out of that
 * environment through Tomcat's EnvironmentPropertySource, as JAVA_OPTS selects it.
 */
class KubernetesTomcatTest {

    private static final String POD = "tlsadmit-6f9c7d5b8-x2k4q";

    private static TomcatDistribution distribution;
    private static TestKeystore keystore;
    private static KubernetesManifests manifests;
    private static TomcatServer tomcat;

    @BeforeAll
    static void startThePodsTomcat() throws IOException {
        distribution = TomcatDistribution.fromBuild();
        keystore = TestKeystore.create(distribution.home().getParent().resolve("keystores"));
        manifests = KubernetesManifests.load();
        tomcat = pod("kubernetes", podEnvironment()).start();
    }

    @AfterAll
    static void stop() {
        if (tomcat != null) {
            tomcat.close();
        }
    }

    @Test
    void cpusIsTheCpuRequestTheDownwardApiHandsOverInMillicores() throws Exception {
        assertEquals("1500", podEnvironment().get("TLSADMIT_CPU_REQUEST_MILLICORES"), "requests.cpu 1500m, divisor 1m");
        ObjectName budget = new ObjectName("io.tlsadmit:type=AdaptiveBudget,connector=\"https-jsse-nio-127.0.0.1-"
                + tomcat.port("tls") + "\"");
        assertEquals("OVERRIDE", tomcat.jmx().getAttribute(budget, "CpuSource"));
        assertEquals(1.5, (Double) tomcat.jmx().getAttribute(budget, "CpusAllocated"));
        assertTrue(tomcat.catalinaOut().contains(": 1.5 CPUs (OVERRIDE,"), "the start-up line says so: " + tomcat.tail());

        Map<String, Double> allocated = PrometheusScrape.parse(get("/tlsadmit/metrics").body())
                .samples("tlsadmit_cpus_allocated", "");
        assertFalse(allocated.isEmpty(), "no tlsadmit_cpus_allocated: metricsAllow from the environment admits loopback");
        allocated.values().forEach(cpus -> assertEquals(1.5, cpus, allocated::toString));
    }

    @Test
    void startupAndLivenessProbesAnswerOnThePlainPort() throws Exception {
        for (String probe : List.of("startupProbe", "livenessProbe")) {
            Map<String, Object> httpGet = KubernetesManifests.map(
                    KubernetesManifests.map(manifests.tomcatContainer(), probe), "httpGet");
            HttpResponse<String> answer = get((String) httpGet.get("path"));
            assertEquals(200, answer.statusCode(), probe + ": " + answer.body());
            // node.jsp names the pod: metadata.name reached the JVM's environment
            assertTrue(answer.body().contains("node=" + POD + "\n"), answer::body);
        }
    }

    @Test
    void theGatedPortServesTlsWithTheSecretsKeystoreAndLogsEachRequestToStdout() {
        OpenSslClient.Result result = OpenSslClient.to(tomcat.port("tls"), keystore).path("/node.jsp").run();
        assertEquals(200, result.httpStatus(), result::output);
        assertTrue(result.output().contains("verdict=NEW\n"), result::output);
        assertTrue(result.output().contains("handshake=FULL\n"), result::output);
        // the access log goes to /dev/stdout, which is catalina.out here and the container log in a pod
        assertTrue(tomcat.catalinaOut().lines().anyMatch(line -> line.contains("\"GET /node.jsp HTTP/1.1\" 200")
                && line.matches(".* \\d+ms NEW FULL")), tomcat::tail);
    }

    @Test
    void theGatedConnectorWarmsUpWithTheDeploymentsPagesBeforeTomcatReportsStarted() {
        String pages = String.join(", ", manifestValue("TLSADMIT_WARM_UP_REQUESTS").split(","));
        List<String> log = tomcat.catalinaOut().lines().toList();
        int warmUp = indexOf(log, "application warm-up on https-jsse-nio-127.0.0.1-" + tomcat.port("tls") + ": [" + pages + "]");
        int done = indexOf(log, "application warm-up on https-jsse-nio-127.0.0.1-" + tomcat.port("tls") + " done: ");
        int started = indexOf(log, "Server startup in");
        assertTrue(warmUp >= 0 && warmUp < done && done < started, tomcat::tail);
        // this test's Tomcat has no RUBiS: the warm-up names the pages it could not warm up
        assertTrue(indexOf(log, "no 2xx or 3xx answer for [" + pages + "]") > done, tomcat::tail);
        // and its hundreds of requests stay out of the access log on stdout
        assertTrue(log.stream().noneMatch(line -> line.contains("\"GET /rubis/")), tomcat::tail);
    }

    private static int indexOf(List<String> lines, String fragment) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(fragment)) {
                return i;
            }
        }
        return -1;
    }

    private static String manifestValue(String variable) {
        return (String) manifests.environment().get(variable).get("value");
    }

    @Test
    void aVariableTheContainerDoesNotSetFailsTheStartNamingTheAttribute() throws IOException {
        Map<String, String> environment = podEnvironment();
        environment.remove("TLSADMIT_CPU_REQUEST_MILLICORES");
        try (TomcatServer broken = podBuilder("kubernetes-unset", environment).startTimeout(Duration.ofSeconds(60)).build()) {
            writeServerXml(broken);
            TomcatStartException e = assertThrows(TomcatStartException.class, broken::start);
            assertTrue(e.catalinaOut().contains("cpus must be a number of CPUs"), e.getMessage());
            assertTrue(e.catalinaOut().contains("\"${TLSADMIT_CPU_REQUEST_MILLICORES}m\""), e.getMessage());
        }
    }

    private static Map<String, String> podEnvironment() {
        Map<String, String> environment = new LinkedHashMap<>(PodEnvironment.of(manifests.tomcatContainer(),
                Map.of("metadata.name", POD), Map.of("tlsadmit-keystore/password", TestKeystore.PASSWORD)));
        environment.put("TLSADMIT_WARM_UP_SECONDS", "1"); // the Deployment's pages, for a second instead of its 15
        return environment;
    }

    /** A pod's Tomcat with this environment, built and with its server.xml and keystore in place; not started. */
    private static TomcatServer pod(String name, Map<String, String> environment) throws IOException {
        TomcatServer server = podBuilder(name, environment).build();
        writeServerXml(server);
        return server;
    }

    private static TomcatServer.Builder podBuilder(String name, Map<String, String> environment) {
        Path artifacts = distribution.home().getParent().resolve("artifacts");
        // these connectors only reserve two free ports; the ConfigMap's server.xml replaces the one written for them
        return TomcatServer.builder(distribution)
                .name(name)
                .connector(ConnectorSpec.http("plain"))
                .connector(ConnectorSpec.https("tls", keystore))
                .lib(BuiltArtifact.GATE_JAR.copyInto(artifacts))
                // catalina.sh sources setenv.sh and then execs java: the exports become the JVM's environment
                .file("bin/setenv.sh", PodEnvironment.exports(environment) + Repository.read("deploy/tomcat/setenv.sh"))
                .file("webapps/ROOT/node.jsp", Repository.read("deploy/tomcat/node.jsp"))
                .catalinaOpt("-Xmx256m")
                .jmx();
    }

    /** The ConfigMap's server.xml at conf/server.xml, the Secret's keystore at conf/tlsadmit/ (the pod's mounts). */
    private static void writeServerXml(TomcatServer server) throws IOException {
        ServerXml committed = ServerXml.load(KubernetesManifests.SERVER_XML);
        String serverXml = ((String) KubernetesManifests.map(manifests.only("ConfigMap").content(), "data")
                .get("server.xml"))
                .replace(port(committed.plainConnector().getAttribute("port")),
                        port(server.port("plain")) + " address=\"127.0.0.1\"")
                .replace(port(committed.gatedConnector().getAttribute("port")),
                        port(server.port("tls")) + " address=\"127.0.0.1\"");
        Files.writeString(server.base().resolve("conf/server.xml"), serverXml);
        Path keystoreFile = server.base().resolve("conf/tlsadmit/keystore.p12");
        Files.createDirectories(keystoreFile.getParent());
        Files.copy(keystore.path(), keystoreFile);
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + tomcat.port("plain") + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String port(Object port) {
        return "port=\"" + port + "\"";
    }
}
