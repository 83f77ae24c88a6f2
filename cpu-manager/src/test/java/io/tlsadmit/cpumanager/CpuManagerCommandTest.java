package io.tlsadmit.cpumanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line: a bad file stops it naming the key; a dry run prints assignments and pod resizes. */
class CpuManagerCommandTest {

    @TempDir
    Path dir;

    private static final String CONFIG = """
            cpus: "0-1"
            period: 200ms
            enforce: quota
            share: true
            minCpus: 0.1
            metricsPort: 0
            applications:
              - name: shop
                pidFile: shop.pid
                priority: 2
              - name: blog
                pidFile: blog.pid
                priority: 1
            """;

    @Test
    void aBadConfigurationStopsTheStartNamingTheKeyAndTouchesNothing() throws Exception {
        Path config = Files.writeString(dir.resolve("bad.yaml"), CONFIG.replace("priority: 2", "priority: two"));
        Result result = run("--config", config.toString(), "--csv", dir.resolve("run.csv").toString());
        assertEquals(CpuManagerCommand.BAD_CONFIG, result.status);
        assertTrue(result.err.contains("applications[0].priority: must be a whole number"), result.err);
        assertFalse(Files.exists(dir.resolve("run.csv")), "nothing started");
        assertFalse(Files.exists(Path.of("/sys/fs/cgroup/cpu/tlsadmit/shop")), "no cgroup made");
    }

    @Test
    void aDryRunPrintsAssignmentsAndPodResizes() throws Exception {
        Path config = Files.writeString(dir.resolve("manager.yaml"), CONFIG);
        Result result = run("--config", config.toString(), "--dry-run", "--kubernetes-container", "tomcat",
                "--periods", "2", "--csv", "none");
        assertEquals(0, result.status, result.err);
        assertTrue(result.out.contains("DRY RUN"), result.out);
        assertTrue(result.out.contains("shop: requested 1.00 assigned 1.00 (not running)"), result.out);
        assertTrue(result.out.contains("kubectl patch pod shop --subresource resize --patch '{\"spec\":{\"containers\":"
                + "[{\"name\":\"tomcat\",\"resources\":{\"requests\":{\"cpu\":\"1000m\"},\"limits\":{\"cpu\":\"1000m\"}}}]}}'"),
                result.out);
    }

    @Test
    void podResizesRoundUpToMillicores() {
        assertEquals("1334m", io.tlsadmit.cpumanager.enforcement.PodResize.millicores(1.3333));
        assertEquals("100m", io.tlsadmit.cpumanager.enforcement.PodResize.millicores(0.1));
    }

    private record Result(int status, String out, String err) {
    }

    private static Result run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            int status = new CommandLine(new CpuManagerCommand()).execute(args);
            return new Result(status, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
