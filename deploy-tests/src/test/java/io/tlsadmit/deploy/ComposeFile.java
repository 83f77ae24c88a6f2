package io.tlsadmit.deploy;

import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * docker-compose.yml as plain maps and lists, with YAML anchors and merge keys resolved the way Compose resolves
 * them; variables like {@code ${TOMCAT_CPUS:-2}} are left as written.
 */
final class ComposeFile {

    static final String PATH = "docker-compose.yml";

    private final Map<String, Object> model;

    private ComposeFile(Map<String, Object> model) {
        this.model = model;
    }

    static ComposeFile load() {
        return new ComposeFile(yaml(Repository.read(PATH)));
    }

    static Map<String, Object> yaml(String text) {
        Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        if (!(document instanceof Map<?, ?> map)) {
            throw new IllegalStateException("Not a YAML mapping: " + text.lines().findFirst().orElse(""));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> typed = (Map<String, Object>) map;
        return typed;
    }

    Map<String, Object> model() {
        return model;
    }

    Map<String, Object> services() {
        return map(model, "services");
    }

    Map<String, Object> service(String name) {
        return map(services(), name);
    }

    /** The fixed address a service has on the compose network {@code network}. */
    String ipv4Address(String service, String network) {
        return (String) map(map(service(service), "networks"), network).get("ipv4_address");
    }

    /** The subnet of a compose network, e.g. {@code 172.30.89.0/24}. */
    String subnet(String network) {
        Map<String, Object> ipam = map(map(map(model, "networks"), network), "ipam");
        List<?> configs = (List<?>) ipam.get("config");
        return (String) ((Map<?, ?>) configs.get(0)).get("subnet");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (!(value instanceof Map<?, ?>)) {
            throw new AssertionError("Expected a mapping at '" + key + "', found " + value);
        }
        return (Map<String, Object>) value;
    }
}
