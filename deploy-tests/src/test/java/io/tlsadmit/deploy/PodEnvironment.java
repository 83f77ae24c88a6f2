package io.tlsadmit.deploy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment variables a container's {@code env} list gives its process, worked out as the kubelet does for
 * the sources deploy/k8s uses: literal values, the Downward API ({@code fieldRef}, {@code resourceFieldRef}) and
 * Secret keys. No kubelet runs here, so a test can start the real Tomcat with exactly what the pod would get.
 */
final class PodEnvironment {

    private PodEnvironment() {
    }

    /**
     * @param fields  Downward API fields of the pod, e.g. {@code metadata.name}
     * @param secrets Secret keys as {@code secretName/key}
     */
    static Map<String, String> of(Map<String, Object> container, Map<String, String> fields, Map<String, String> secrets) {
        Map<String, String> environment = new LinkedHashMap<>();
        for (Map<String, Object> variable : KubernetesManifests.list(container, "env")) {
            String name = (String) variable.get("name");
            if (variable.containsKey("value")) {
                environment.put(name, String.valueOf(variable.get("value")));
                continue;
            }
            Map<String, Object> from = KubernetesManifests.map(variable, "valueFrom");
            String value;
            if (from.containsKey("fieldRef")) {
                String path = (String) KubernetesManifests.map(from, "fieldRef").get("fieldPath");
                value = required(fields.get(path), name + ": no value for field " + path);
            } else if (from.containsKey("resourceFieldRef")) {
                value = resource(container, KubernetesManifests.map(from, "resourceFieldRef"));
            } else if (from.containsKey("secretKeyRef")) {
                Map<String, Object> ref = KubernetesManifests.map(from, "secretKeyRef");
                String key = ref.get("name") + "/" + ref.get("key");
                value = required(secrets.get(key), name + ": no test value for Secret key " + key);
            } else {
                throw new AssertionError(name + ": a source this test does not know: " + from.keySet());
            }
            environment.put(name, value);
        }
        return environment;
    }

    /**
     * A container resource divided by the divisor and rounded up, as the kubelet writes it ({@code requests.cpu}
     * 1500m with divisor 1m is "1500"; with the default divisor 1 it is "2").
     */
    private static String resource(Map<String, Object> container, Map<String, Object> field) {
        String resource = (String) field.get("resource");
        if (!resource.endsWith(".cpu")) {
            throw new AssertionError("only CPU resources are worked out here, not " + resource);
        }
        Map<String, Object> resources = KubernetesManifests.map(container, "resources");
        Map<String, Object> bucket = KubernetesManifests.map(resources, resource.substring(0, resource.indexOf('.')));
        // without a limit the kubelet hands over the node's allocatable CPUs, which no test here can know
        String quantity = required(bucket.get("cpu") == null ? null : String.valueOf(bucket.get("cpu")),
                resource + " is not set in the container's resources");
        String divisor = field.get("divisor") == null ? "1" : String.valueOf(field.get("divisor"));
        return cpus(quantity).divide(cpus(divisor), 0, RoundingMode.CEILING).toPlainString();
    }

    private static BigDecimal cpus(String quantity) {
        return quantity.endsWith("m")
                ? new BigDecimal(quantity.substring(0, quantity.length() - 1)).movePointLeft(3)
                : new BigDecimal(quantity);
    }

    private static String required(String value, String message) {
        if (value == null) {
            throw new AssertionError(message);
        }
        return value;
    }

    /** Lines for a shell script that export these variables, quoted so that nothing in a value is expanded. */
    static String exports(Map<String, String> environment) {
        StringBuilder script = new StringBuilder();
        environment.forEach((name, value) -> script.append("export ").append(name).append("='")
                .append(value.replace("'", "'\\''")).append("'\n"));
        return script.toString();
    }
}
