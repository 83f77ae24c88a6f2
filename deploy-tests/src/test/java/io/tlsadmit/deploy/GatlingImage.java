package io.tlsadmit.deploy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What deploy/gatling/Dockerfile does, done on this machine: its dependency stage's Maven command (offline, into a
 * local directory instead of /build/lib) and its ENTRYPOINT (with the image's paths moved to local ones), with
 * JAVA_OPTS as docker-compose.yml interpolates them.
 */
final class GatlingImage {

    static final String DOCKERFILE = "deploy/gatling/Dockerfile";
    private static final String IMAGE_LIB = "/opt/loadtests/lib";
    private static final String IMAGE_RESULTS = "/results";

    private GatlingImage() {
    }

    /** Runs the Dockerfile's {@code RUN mvn ... dependency:copy-dependencies} line into {@code lib}. */
    static Command resolveDependencies(Path lib) {
        Matcher run = Pattern.compile("(?m)^RUN (mvn .*dependency:copy-dependencies.*)$").matcher(Repository.read(DOCKERFILE));
        if (!run.find()) {
            throw new AssertionError(DOCKERFILE + " has no RUN mvn ... dependency:copy-dependencies");
        }
        List<String> argv = new ArrayList<>();
        for (String word : run.group(1).trim().split("\\s+")) {
            argv.add(word.replace("/build/pom.xml", Repository.file("deploy/gatling/pom.xml").toString())
                    .replace("-DoutputDirectory=/build/lib", "-DoutputDirectory=" + lib));
        }
        argv.add(1, "-o"); // tests stay off the network: the loadtests build has resolved the same Gatling
        return Command.run(argv.toArray(String[]::new));
    }

    /** The ENTRYPOINT as an argv, reading its classpath from {@code lib} and writing results under {@code results}. */
    static String[] entrypoint(Path lib, Path results) {
        Matcher entrypoint = Pattern.compile("(?m)^ENTRYPOINT (\\[.*])$").matcher(Repository.read(DOCKERFILE));
        if (!entrypoint.find()) {
            throw new AssertionError(DOCKERFILE + " has no exec-form ENTRYPOINT");
        }
        try {
            String[] argv = new ObjectMapper().readValue(entrypoint.group(1), String[].class);
            return Arrays.stream(argv)
                    .map(arg -> arg.replace(IMAGE_LIB, lib.toString()).replace(IMAGE_RESULTS + "/", results + "/"))
                    .toArray(String[]::new);
        } catch (JsonProcessingException e) {
            throw new AssertionError(DOCKERFILE + ": ENTRYPOINT is not a JSON array: " + e.getOriginalMessage(), e);
        }
    }

    /** The gatling service's JAVA_OPTS after docker-compose has interpolated {@code environment} into the file. */
    static String composeJavaOptions(Map<String, String> environment) {
        Command config = Command.run(environment, "docker-compose", "-f", ComposeFile.PATH, "config");
        if (!config.succeeded()) {
            throw new AssertionError(config.toString());
        }
        Map<String, Object> services = ComposeFile.map(ComposeFile.yaml(config.output()), "services");
        return ComposeFile.map(ComposeFile.map(services, "gatling"), "environment").get("JAVA_OPTS").toString();
    }
}
