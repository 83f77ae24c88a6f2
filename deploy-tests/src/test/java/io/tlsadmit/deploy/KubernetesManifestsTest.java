package io.tlsadmit.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.deploy.KubernetesManifests.Manifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Attr;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;

/**
 * The manifests in deploy/k8s: valid for the Kubernetes API, and wired to each other and to server.xml the way
 * docs/deploy.md says (probes and scrapes on the plain port, server.xml from the ConfigMap, every ${...} of
 * server.xml set by the container). That Tomcat really starts from them is {@link KubernetesTomcatTest}.
 */
class KubernetesManifestsTest {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}:]+)(?::-[^}]*)?}");
    private static final String ENVIRONMENT_PROPERTY_SOURCE =
            "-Dorg.apache.tomcat.util.digester.PROPERTY_SOURCE=org.apache.tomcat.util.digester.EnvironmentPropertySource";

    private final KubernetesManifests manifests = KubernetesManifests.load();
    private final ServerXml serverXml = ServerXml.load(KubernetesManifests.SERVER_XML);

    @Test
    void everyBuiltInResourceIsValidForTheKubernetesApi() {
        Set<String> kinds = new TreeSet<>();
        for (Manifest manifest : manifests.all()) {
            kinds.add(manifest.kind());
            if (KubernetesSchema.isBuiltIn(manifest.kind())) {
                KubernetesSchema.check(manifest.file(), manifest.content());
            }
        }
        assertEquals(Set.of("ConfigMap", "Deployment", "NetworkPolicy", "Service", "ServiceMonitor"), kinds);
    }

    @Test
    void theSchemaCheckRejectsAMisspelledFieldAWrongTypeAndAMissingRequiredField() {
        Map<String, Object> misspelled = copy(manifests.only("Deployment").content());
        Map<String, Object> container = tomcatContainerOf(misspelled);
        container.put("livenesProbe", container.remove("livenessProbe"));
        AssertionError unknown = assertThrows(AssertionError.class, () -> KubernetesSchema.check("control", misspelled));
        assertTrue(unknown.getMessage().contains("livenesProbe"), unknown.getMessage());

        Map<String, Object> wrongType = copy(manifests.only("Deployment").content());
        KubernetesManifests.map(wrongType, "spec").put("replicas", "two");
        assertThrows(AssertionError.class, () -> KubernetesSchema.check("control", wrongType));

        Map<String, Object> noPorts = copy(manifests.only("Service").content());
        KubernetesManifests.list(KubernetesManifests.map(noPorts, "spec"), "ports").get(0).remove("port");
        AssertionError missing = assertThrows(AssertionError.class, () -> KubernetesSchema.check("control", noPorts));
        assertTrue(missing.getMessage().contains("port"), missing.getMessage());
    }

    @Test
    void theConfigMapCarriesServerXmlUnchangedAndTheDeploymentMountsItOverTomcats() {
        Manifest configMap = manifests.only("ConfigMap");
        assertEquals(Repository.read(KubernetesManifests.SERVER_XML),
                KubernetesManifests.map(configMap.content(), "data").get("server.xml"),
                "configmap.yaml must carry deploy/k8s/server.xml as it is; regenerate it with the command at its top");

        Map<String, Object> container = manifests.tomcatContainer();
        Map<String, Object> mount = KubernetesManifests.list(container, "volumeMounts").stream()
                .filter(m -> KubernetesManifests.SERVER_XML_MOUNT.equals(m.get("mountPath"))).findFirst().orElseThrow();
        assertEquals("server.xml", mount.get("subPath"));
        Map<String, Object> volume = volume((String) mount.get("name"));
        assertEquals(configMap.metadata().get("name"), KubernetesManifests.map(volume, "configMap").get("name"));
    }

    @Test
    void everyProbeUsesThePlainPortNeverTheGatedOne() {
        int plain = Integer.parseInt(serverXml.plainConnector().getAttribute("port"));
        int gated = Integer.parseInt(serverXml.gatedConnector().getAttribute("port"));
        Map<String, Object> container = manifests.tomcatContainer();
        List<String> probes = List.of("startupProbe", "livenessProbe", "readinessProbe");
        for (String probe : probes) {
            assertTrue(container.containsKey(probe), probe + " missing");
            Map<String, Object> httpGet = KubernetesManifests.map(KubernetesManifests.map(container, probe), "httpGet");
            int port = manifests.containerPort(httpGet.get("port"));
            assertEquals(plain, port, probe + " must use server.xml's plain connector");
            assertNotEquals(gated, port, probe);
            assertNotEquals("HTTPS", httpGet.get("scheme"), probe);
        }
    }

    @Test
    void theProbesPortIsDeclaredAfterTheGatedOneSoThatAPodIsReadyOnlyOnceWarm() {
        // Tomcat starts connectors in server.xml's order, and the gated one's start returns once its warm-up is over
        Element gated = serverXml.gatedConnector();
        Element plain = serverXml.plainConnector();
        assertTrue((gated.compareDocumentPosition(plain) & org.w3c.dom.Node.DOCUMENT_POSITION_FOLLOWING) != 0,
                "the plain connector (probes) must follow the gated one in server.xml");
        assertEquals("${TLSADMIT_WARM_UP_REQUESTS}", gated.getAttribute("warmUpRequests"));
        assertEquals("${TLSADMIT_WARM_UP_SECONDS}", gated.getAttribute("warmUpSeconds"));
        int seconds = Integer.parseInt((String) manifests.environment().get("TLSADMIT_WARM_UP_SECONDS").get("value"));
        Map<String, Object> startup = KubernetesManifests.map(manifests.tomcatContainer(), "startupProbe");
        int allowed = ((Number) startup.get("periodSeconds")).intValue()
                * ((Number) startup.get("failureThreshold")).intValue();
        assertTrue(allowed >= seconds + 60, "the startup probe allows " + allowed + " s for a start that warms up for "
                + seconds + " s");
    }

    @Test
    void everyPlaceholderOfServerXmlIsAVariableOfTheTomcatContainer() {
        Map<String, Map<String, Object>> environment = manifests.environment();
        assertTrue(String.valueOf(environment.get("JAVA_OPTS").get("value")).contains(ENVIRONMENT_PROPERTY_SOURCE),
                "JAVA_OPTS must select Tomcat's EnvironmentPropertySource, or ${...} reads system properties");
        List<String> placeholders = new ArrayList<>();
        for (Element element : serverXml.allElements()) {
            NamedNodeMap attributes = element.getAttributes();
            for (int i = 0; i < attributes.getLength(); i++) {
                Matcher matcher = PLACEHOLDER.matcher(((Attr) attributes.item(i)).getValue());
                while (matcher.find()) {
                    placeholders.add(matcher.group(1));
                }
            }
        }
        assertTrue(placeholders.containsAll(List.of("TLSADMIT_CPU_REQUEST_MILLICORES", "TLSADMIT_METRICS_ALLOW",
                        "TLSADMIT_WARM_UP_REQUESTS", "TLSADMIT_WARM_UP_SECONDS")),
                placeholders::toString);
        for (String name : placeholders) {
            assertTrue(environment.containsKey(name), "server.xml reads ${" + name + "}, which the container does not set");
        }
    }

    @Test
    void cpusIsTheContainersCpuRequestInMillicoresFromTheDownwardApi() {
        assertEquals("${TLSADMIT_CPU_REQUEST_MILLICORES}m", serverXml.gatedConnector().getAttribute("cpus"));
        Map<String, Object> field = KubernetesManifests.map(KubernetesManifests.map(
                manifests.environment().get("TLSADMIT_CPU_REQUEST_MILLICORES"), "valueFrom"), "resourceFieldRef");
        assertEquals("requests.cpu", field.get("resource"));
        // the default divisor, 1, rounds the request up to whole CPUs: 1500m would become 2
        assertEquals("1m", field.get("divisor"));
        assertEquals(manifests.tomcatContainer().get("name"), field.get("containerName"));
        Map<String, Object> requests = KubernetesManifests.map(
                KubernetesManifests.map(manifests.tomcatContainer(), "resources"), "requests");
        assertTrue(requests.containsKey("cpu"), "the container must request CPUs for cpus to mean anything");
    }

    @Test
    void theServiceSelectsTheDeploymentsPodsAndReachesBothConnectors() {
        Manifest service = manifests.only("Service");
        Map<String, Object> podLabels = KubernetesManifests.map(KubernetesManifests.map(manifests.podTemplate(),
                "metadata"), "labels");
        assertTrue(podLabels.entrySet().containsAll(
                KubernetesManifests.map(service.spec(), "selector").entrySet()), "the Service selects no pod");
        assertEquals(KubernetesManifests.map(KubernetesManifests.map(manifests.only("Deployment").spec(), "selector"),
                "matchLabels"), KubernetesManifests.map(service.spec(), "selector"));
        Set<Integer> targets = new TreeSet<>();
        for (Map<String, Object> port : KubernetesManifests.list(service.spec(), "ports")) {
            targets.add(manifests.containerPort(port.get("targetPort")));
        }
        assertEquals(new TreeSet<>(List.of(Integer.parseInt(serverXml.plainConnector().getAttribute("port")),
                Integer.parseInt(serverXml.gatedConnector().getAttribute("port")))), targets);
    }

    @Test
    void theServiceMonitorScrapesTheValvesMetricsPathOnThePlainPortOfThisService() {
        Manifest monitor = manifests.only("ServiceMonitor");
        assertEquals("monitoring.coreos.com/v1", monitor.apiVersion());
        Manifest service = manifests.only("Service");
        Map<String, Object> serviceLabels = service.metadata().get("labels") instanceof Map<?, ?>
                ? KubernetesManifests.map(service.metadata(), "labels") : Map.of();
        Map<String, Object> selector = KubernetesManifests.map(KubernetesManifests.map(monitor.spec(), "selector"),
                "matchLabels");
        assertTrue(serviceLabels.entrySet().containsAll(selector.entrySet()),
                "the ServiceMonitor's selector " + selector + " does not select the Service " + serviceLabels);

        // no schema for a custom resource here: every field used is one this test checks
        assertEquals(Set.of("selector", "endpoints"), monitor.spec().keySet());
        assertEquals(Set.of("matchLabels"), KubernetesManifests.map(monitor.spec(), "selector").keySet());
        List<Map<String, Object>> endpoints = KubernetesManifests.list(monitor.spec(), "endpoints");
        assertEquals(1, endpoints.size());
        Map<String, Object> endpoint = endpoints.get(0);
        assertEquals(Set.of("port", "scheme", "path", "interval"), endpoint.keySet());
        Map<String, Object> servicePort = KubernetesManifests.list(service.spec(), "ports").stream()
                .filter(p -> endpoint.get("port").equals(p.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("the Service has no port named " + endpoint.get("port")));
        assertEquals(Integer.parseInt(serverXml.plainConnector().getAttribute("port")),
                manifests.containerPort(servicePort.get("targetPort")));
        assertEquals("http", endpoint.get("scheme"));
        assertEquals(serverXml.valveAttribute("metricsPath", "/tlsadmit/metrics"), endpoint.get("path"));
        assertTrue(String.valueOf(endpoint.get("interval")).matches("\\d+s"), () -> "interval " + endpoint.get("interval"));
    }

    @Test
    void theNetworkPolicyOpensTheGatedPortAndKeepsThePlainOneToTheMonitoringNamespace() {
        Manifest policy = manifests.only("NetworkPolicy");
        assertEquals(KubernetesManifests.map(KubernetesManifests.map(manifests.only("Deployment").spec(), "selector"),
                "matchLabels"), KubernetesManifests.map(KubernetesManifests.map(policy.spec(), "podSelector"),
                "matchLabels"));
        int plain = Integer.parseInt(serverXml.plainConnector().getAttribute("port"));
        boolean gatedOpen = false;
        for (Map<String, Object> rule : KubernetesManifests.list(policy.spec(), "ingress")) {
            for (Map<String, Object> port : KubernetesManifests.list(rule, "ports")) {
                if (manifests.containerPort(port.get("port")) == plain) {
                    assertTrue(rule.containsKey("from"), "the plain port (the whole application over HTTP) open to all");
                } else {
                    gatedOpen |= !rule.containsKey("from");
                }
            }
        }
        assertTrue(gatedOpen, "no rule admits clients to the gated port");
    }

    @Test
    void theDeploymentRunsTheImageTheComposeStackBuilds() {
        assertEquals(ComposeFile.load().service("tomcat").get("image"), manifests.tomcatContainer().get("image"));
        assertFalse(String.valueOf(manifests.tomcatContainer().get("image")).endsWith(":latest"));
    }

    private Map<String, Object> volume(String name) {
        return KubernetesManifests.list(KubernetesManifests.map(manifests.podTemplate(), "spec"), "volumes").stream()
                .filter(v -> name.equals(v.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }

    private static Map<String, Object> tomcatContainerOf(Map<String, Object> deployment) {
        Map<String, Object> podSpec = KubernetesManifests.map(KubernetesManifests.map(
                KubernetesManifests.map(deployment, "spec"), "template"), "spec");
        return KubernetesManifests.list(podSpec, "containers").get(0);
    }

    /** A deep copy to break on purpose. */
    @SuppressWarnings("unchecked")
    private static <T> T copy(T value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copied = new LinkedHashMap<>();
            map.forEach((k, v) -> copied.put((String) k, copy(v)));
            return (T) copied;
        }
        if (value instanceof List<?> list) {
            List<Object> copied = new ArrayList<>();
            list.forEach(v -> copied.add(copy(v)));
            return (T) copied;
        }
        return value;
    }
}
