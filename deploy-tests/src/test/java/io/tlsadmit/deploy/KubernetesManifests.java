package io.tlsadmit.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The manifests in {@code deploy/k8s/} as plain maps and lists, one per YAML document, with the few lookups the
 * tests share: the Deployment's Tomcat container, its ports by name, its environment.
 */
final class KubernetesManifests {

    static final String DIRECTORY = "deploy/k8s";
    static final String SERVER_XML = DIRECTORY + "/server.xml";
    /** Where the Deployment mounts server.xml, in the official Tomcat image's layout. */
    static final String SERVER_XML_MOUNT = "/usr/local/tomcat/conf/server.xml";

    /** One document and the file it came from, for messages. */
    record Manifest(String file, Map<String, Object> content) {

        String kind() {
            return (String) content.get("kind");
        }

        String apiVersion() {
            return (String) content.get("apiVersion");
        }

        Map<String, Object> metadata() {
            return map(content, "metadata");
        }

        Map<String, Object> spec() {
            return map(content, "spec");
        }
    }

    private final List<Manifest> manifests;

    private KubernetesManifests(List<Manifest> manifests) {
        this.manifests = manifests;
    }

    static KubernetesManifests load() {
        List<Manifest> manifests = new ArrayList<>();
        try (Stream<Path> files = Files.list(Repository.root().resolve(DIRECTORY))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                String name = DIRECTORY + "/" + file.getFileName();
                for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(Files.readString(file))) {
                    if (!(document instanceof Map<?, ?>)) {
                        throw new AssertionError(name + ": a document that is not a mapping: " + document);
                    }
                    @SuppressWarnings("unchecked")
                    Map<String, Object> content = (Map<String, Object>) document;
                    manifests.add(new Manifest(name, content));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new KubernetesManifests(manifests);
    }

    List<Manifest> all() {
        return manifests;
    }

    /** The one manifest of this kind. */
    Manifest only(String kind) {
        List<Manifest> found = manifests.stream().filter(m -> kind.equals(m.kind())).toList();
        if (found.size() != 1) {
            throw new AssertionError("Expected one " + kind + " in " + DIRECTORY + ", found " + found.size());
        }
        return found.get(0);
    }

    Map<String, Object> podTemplate() {
        return map(only("Deployment").spec(), "template");
    }

    /** The Deployment's Tomcat: the container that mounts server.xml. */
    Map<String, Object> tomcatContainer() {
        for (Map<String, Object> container : list(map(podTemplate(), "spec"), "containers")) {
            for (Map<String, Object> mount : list(container, "volumeMounts")) {
                if (SERVER_XML_MOUNT.equals(mount.get("mountPath"))) {
                    return container;
                }
            }
        }
        throw new AssertionError("No container of the Deployment mounts " + SERVER_XML_MOUNT);
    }

    /** The Tomcat container's port with this name, or with this number when given a number (as a probe may). */
    int containerPort(Object nameOrNumber) {
        if (nameOrNumber instanceof Integer number) {
            return number;
        }
        for (Map<String, Object> port : list(tomcatContainer(), "ports")) {
            if (nameOrNumber.equals(port.get("name"))) {
                return (Integer) port.get("containerPort");
            }
        }
        throw new AssertionError("The Tomcat container has no port named " + nameOrNumber);
    }

    /** The Tomcat container's environment, each variable as written ({@code value} or {@code valueFrom}). */
    Map<String, Map<String, Object>> environment() {
        Map<String, Map<String, Object>> variables = new java.util.LinkedHashMap<>();
        for (Map<String, Object> variable : list(tomcatContainer(), "env")) {
            variables.put((String) variable.get("name"), variable);
        }
        return variables;
    }

    static Map<String, Object> map(Map<String, Object> parent, String key) {
        return ComposeFile.map(parent, key);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (!(value instanceof List<?>)) {
            throw new AssertionError("Expected a list at '" + key + "', found " + value);
        }
        return (List<Map<String, Object>>) value;
    }
}
