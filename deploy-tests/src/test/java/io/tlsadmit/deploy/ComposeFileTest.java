package io.tlsadmit.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml, checked without a Docker engine: by docker-compose itself ({@code config} parses,
 * interpolates and validates without talking to an engine), by the Compose Specification's JSON schema, and by
 * the promises the stack makes (pinned images, CPU limits, metrics reachable by Prometheus only).
 */
class ComposeFileTest {

    private static final Set<String> DEFAULT_SERVICES = Set.of("mariadb", "rubis-data", "tomcat", "prometheus",
            "grafana", "gatling");
    private static final Set<String> SCALE_OUT_SERVICES = Set.of("tomcat-a", "tomcat-b", "haproxy");
    private static final Pattern FROM = Pattern.compile("(?m)^FROM\\s+(\\S+)(?:\\s+AS\\s+(\\S+))?", Pattern.CASE_INSENSITIVE);
    private static final Pattern COPY = Pattern.compile("(?m)^COPY\\s+(?!--from)(.+)$", Pattern.CASE_INSENSITIVE);

    private final ComposeFile compose = ComposeFile.load();

    @Test
    void dockerComposeAcceptsTheFileWithAndWithoutTheScaleOutProfile() {
        Command plain = Command.run("docker-compose", "-f", ComposeFile.PATH, "config", "--quiet");
        assertTrue(plain.succeeded(), plain::toString);
        Command scaleOut = Command.run("docker-compose", "-f", ComposeFile.PATH, "--profile", "scale-out", "config",
                "--quiet");
        assertTrue(scaleOut.succeeded(), scaleOut::toString);

        // docker-compose 1.29 lists every service here, whatever its profiles
        Command services = Command.run("docker-compose", "-f", ComposeFile.PATH, "config", "--services");
        assertTrue(services.succeeded(), services::toString);
        Set<String> all = new TreeSet<>(DEFAULT_SERVICES);
        all.addAll(SCALE_OUT_SERVICES);
        assertEquals(all, new TreeSet<>(services.lines()));
    }

    @Test
    void onlyTheReplicasAndHaproxyWaitForTheScaleOutProfile() {
        Set<String> profiled = new TreeSet<>();
        compose.services().forEach((name, service) -> {
            Object profiles = ((Map<?, ?>) service).get("profiles");
            if (profiles != null) {
                assertEquals(List.of("scale-out"), profiles, name);
                profiled.add(name);
            }
        });
        assertEquals(new TreeSet<>(SCALE_OUT_SERVICES), profiled);
    }

    @Test
    void fileConformsToTheComposeSpecificationSchema() {
        Set<ValidationMessage> errors = composeSpecification().validate(asJson(compose.model()));
        assertTrue(errors.isEmpty(), () -> "docker-compose.yml breaks the Compose Specification: " + errors);
    }

    @Test
    void schemaCheckCatchesAMisspelledServiceKey() {
        Map<String, Object> broken = new LinkedHashMap<>(compose.model());
        Map<String, Object> services = new LinkedHashMap<>(compose.services());
        Map<String, Object> tomcat = new LinkedHashMap<>(compose.service("tomcat"));
        tomcat.put("cpu", 2);
        services.put("tomcat", tomcat);
        broken.put("services", services);

        Set<ValidationMessage> errors = composeSpecification().validate(asJson(broken));
        assertFalse(errors.isEmpty(), "a service with an unknown key 'cpu' passed the schema");
        assertTrue(errors.toString().contains("cpu"), errors::toString);
    }

    @Test
    void everyTomcatHasACpuLimitForTheAdaptiveBudgetToFollow() {
        for (String service : List.of("tomcat", "tomcat-a", "tomcat-b")) {
            assertNotNull(compose.service(service).get("cpus"), service + " has no cpus: limit");
        }
    }

    @Test
    void everyImageIsPinnedToAVersion() {
        List<String> images = new ArrayList<>();
        compose.services().forEach((name, service) -> {
            Object image = ((Map<?, ?>) service).get("image");
            if (image != null && !image.toString().startsWith("tlsadmit/")) {
                images.add(image.toString());
            }
        });
        for (Path dockerfile : dockerfiles()) {
            Set<String> stages = new TreeSet<>();
            Matcher from = FROM.matcher(read(dockerfile));
            while (from.find()) {
                if (!stages.contains(from.group(1))) {
                    images.add(from.group(1));
                }
                if (from.group(2) != null) {
                    stages.add(from.group(2));
                }
            }
        }
        assertFalse(images.isEmpty());
        for (String image : images) {
            int colon = image.lastIndexOf(':');
            assertTrue(colon > image.lastIndexOf('/'), image + " has no tag");
            String tag = image.substring(colon + 1);
            assertTrue(tag.matches("v?\\d+(\\.\\d+)+.*"), image + " is not pinned to a version");
        }
    }

    @Test
    void dockerfilesCopyOnlyModuleArtifactsAndDeployFilesTheirIgnoreFilesLetThrough() {
        for (Path dockerfile : dockerfiles()) {
            String ignore = read(dockerfile.resolveSibling(dockerfile.getFileName() + ".dockerignore"));
            Matcher copy = COPY.matcher(read(dockerfile));
            int copies = 0;
            while (copy.find()) {
                String[] words = copy.group(1).trim().split("\\s+");
                for (int i = 0; i < words.length - 1; i++) {
                    String source = words[i];
                    copies++;
                    assertTrue(ignore.lines().anyMatch(line -> line.equals("!" + source)
                                    || line.endsWith("/") && source.startsWith(line.substring(1))),
                            dockerfile + ": " + source + " is excluded from the build context by its .dockerignore");
                    if (source.startsWith("deploy/")) {
                        assertTrue(Files.exists(Repository.root().resolve(source)), dockerfile + ": no " + source);
                    } else {
                        String module = source.substring(0, source.indexOf('/'));
                        assertTrue(source.startsWith(module + "/target/"), dockerfile + ": " + source
                                + " is neither in deploy/ nor a module's build output");
                        assertTrue(Files.isRegularFile(Repository.root().resolve(module).resolve("pom.xml")),
                                dockerfile + ": " + source + " names no Maven module");
                    }
                }
            }
            assertTrue(copies > 0, dockerfile + " copies nothing");
        }
    }

    @Test
    void metricsAllowAdmitsPrometheusAndGatlingButNoOtherContainer() throws UnknownHostException {
        Pattern allowed = Pattern.compile(ServerXml.load().valveAttribute("metricsAllow", ""));
        assertTrue(allowed.matcher(compose.ipv4Address("prometheus", "tlsadmit")).matches());
        assertTrue(allowed.matcher(compose.ipv4Address("gatling", "tlsadmit")).matches());
        assertTrue(allowed.matcher("127.0.0.1").matches());

        // the network's gateway (what a published port looks like from inside) and any other container
        byte[] subnet = InetAddress.getByName(compose.subnet("tlsadmit").split("/")[0]).getAddress();
        for (int host : new int[] {1, 2, 3, 12, 100, 254}) {
            subnet[3] = (byte) host;
            String other = InetAddress.getByAddress(subnet).getHostAddress();
            assertFalse(allowed.matcher(other).matches(), other + " may read the metrics");
        }
    }

    @Test
    void gatlingImageResolvesTheGatlingVersionTheLoadTestsUse() {
        assertEquals(gatlingVersion("loadtests/pom.xml"), gatlingVersion("deploy/gatling/pom.xml"));
    }

    private static String gatlingVersion(String pom) {
        Matcher version = Pattern.compile("<gatling.version>([^<]+)</gatling.version>").matcher(Repository.read(pom));
        assertTrue(version.find(), pom + " sets no gatling.version");
        return version.group(1);
    }

    static JsonSchema composeSpecification() {
        Path schema = Path.of(System.getProperty("tlsadmit.compose.schema",
                "/usr/lib/python3/dist-packages/compose/config/compose_spec.json"));
        if (!Files.isRegularFile(schema)) {
            throw new IllegalStateException("No Compose Specification schema at " + schema
                    + ": install the Debian package 'docker-compose' (bin/prerequisites does)");
        }
        try {
            JsonNode specification = new ObjectMapper().readTree(schema.toFile());
            dropLegacyIds(specification);
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V201909).getSchema(specification);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + schema, e);
        }
    }

    /**
     * The shipped schema declares draft 2019-09 but labels its parts with draft-4 style {@code "id"} strings,
     * which 2019-09 does not define (it has {@code $id}) and the validator refuses as an unknown keyword.
     * They identify nothing that a {@code $ref} uses, so removing them changes no rule.
     */
    private static void dropLegacyIds(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.path("id").isTextual()) {
                object.remove("id");
            }
            object.elements().forEachRemaining(ComposeFileTest::dropLegacyIds);
        } else if (node.isArray()) {
            node.elements().forEachRemaining(ComposeFileTest::dropLegacyIds);
        }
    }

    private static JsonNode asJson(Map<String, Object> model) {
        return new ObjectMapper().valueToTree(model);
    }

    private static List<Path> dockerfiles() {
        try (Stream<Path> files = Files.walk(Repository.root().resolve("deploy"))) {
            List<Path> dockerfiles = files.filter(f -> f.getFileName().toString().equals("Dockerfile")).sorted().toList();
            assertEquals(3, dockerfiles.size(), "expected the tomcat, rubis-data and gatling images: " + dockerfiles);
            return dockerfiles;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }
}
