package io.tlsadmit.cpumanager.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.cpu.CpuList;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigFileTest {

    static final String ISSUE_EXAMPLE = """
            cpus: "0-1"          # the host CPUs it distributes
            period: 1s
            enforce: quota
            share: true
            minCpus: 0.1
            metricsPort: 9464
            applications:
              - name: shop
                pidFile: /path/to/catalina.pid
                priority: 2
              - name: blog
                pidFile: /path/to/other/catalina.pid
                priority: 1
            """;

    private final ConfigFile file = new ConfigFile(List.of(0, 1, 2, 3));

    @Test
    void theIssuesExampleReads() throws ConfigException {
        ManagerConfig config = file.parse(ISSUE_EXAMPLE, Path.of("/etc/tlsadmit"));
        assertEquals(List.of(0, 1), config.cpus());
        assertEquals(Duration.ofSeconds(1), config.period());
        assertEquals(Enforcement.QUOTA, config.enforcement());
        assertTrue(config.share());
        assertEquals(0.1, config.minCpus());
        assertEquals(9464, config.metricsPort());
        assertEquals(Duration.ofMillis(100), config.quotaPeriod(), "the default CFS period: the kernel's");
        assertEquals(64, config.weightPerCpu(), "an assigned CPU weighs as 64 busy threads");
        assertEquals(ShareableCpus.MEASURED, config.capacity(), "the cpus less what other processes use on them");
        assertEquals(List.of(new Application("shop", Path.of("/path/to/catalina.pid"), 2),
                new Application("blog", Path.of("/path/to/other/catalina.pid"), 1)), config.applications());
    }

    @Test
    void relativePidFilesAreRelativeToTheConfiguration() throws ConfigException {
        ManagerConfig config = file.parse(ISSUE_EXAMPLE.replace("/path/to/catalina.pid", "shop/catalina.pid"),
                Path.of("/etc/tlsadmit"));
        assertEquals(Path.of("/etc/tlsadmit/shop/catalina.pid"), config.applications().get(0).pidFile());
    }

    @Test
    void theQuotaPeriodIsADuration() throws ConfigException {
        ManagerConfig config = file.parse(ISSUE_EXAMPLE.replace("minCpus: 0.1", "quotaPeriod: 20ms"), Path.of("/etc"));
        assertEquals(Duration.ofMillis(20), config.quotaPeriod());
        assertEquals(1, file.parse(ISSUE_EXAMPLE.replace("minCpus: 0.1", "weightPerCpu: 1"), Path.of("/etc"))
                .weightPerCpu());
    }

    @Test
    void allCpusAreSharedOutOnlyWhenAsked() throws ConfigException {
        assertEquals(ShareableCpus.ALL, file.parse(ISSUE_EXAMPLE.replace("minCpus: 0.1", "capacity: all"), Path.of("/etc"))
                .capacity());
        assertEquals(ShareableCpus.MEASURED, file.parse(ISSUE_EXAMPLE.replace("minCpus: 0.1", "capacity: measured"),
                Path.of("/etc")).capacity());
    }

    /** Each row changes one line of the issue's example; the error must start with the key. */
    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
        cpus: "0-1"               | cpus: "0-7"                | cpus                      | not online
        cpus: "0-1"               | cpus: "1-0"                | cpus                      | backwards
        cpus: "0-1"               | cpus: "zero"               | cpus                      | not a CPU number
        period: 1s                | period: fast               | period                    | not a duration
        period: 1s                | period: 10ms               | period                    | between 100ms and 10m
        enforce: quota            | enforce: cgroups           | enforce                   | none of quota, affinity, both
        share: true               | share: sometimes           | share                     | true or false
        minCpus: 0.1              | minCpus: 1.5               | minCpus                   | more than the 2 CPUs
        minCpus: 0.1              | minCpus: -1                | minCpus                   | >= 0
        minCpus: 0.1              | minCPUs: 0.1               | minCPUs                   | unknown key
        minCpus: 0.1              | weightPerCpu: 0            | weightPerCpu              | whole number 1-256
        minCpus: 0.1              | weightPerCpu: 1000         | weightPerCpu              | whole number 1-256
        minCpus: 0.1              | weightPerCpu: 1.5          | weightPerCpu              | whole number 1-256
        minCpus: 0.1              | capacity: host             | capacity                  | none of measured
        minCpus: 0.1              | capacity: 1.5              | capacity                  | none of measured
        minCpus: 0.1              | quotaPeriod: 0ms           | quotaPeriod               | between 1ms and 1s
        minCpus: 0.1              | quotaPeriod: 2s            | quotaPeriod               | between 1ms and 1s
        minCpus: 0.1              | quotaPeriod: 20            | quotaPeriod               | not a duration
        metricsPort: 9464         | metricsPort: 70000         | metricsPort               | TCP port
        metricsPort: 9464         | metricsPort: http          | metricsPort               | TCP port
        priority: 2               | priority: 0                | applications[0].priority  | whole number 1-1000
        priority: 2               | priority: high             | applications[0].priority  | whole number 1-1000
        name: blog                | name: shop                 | applications[1].name      | used twice
        name: blog                | name: blog/../x            | applications[1].name      | letters, digits
        pidFile: /path/to/catalina.pid | pidfile: /x           | applications[0].pidfile   | unknown key
        """)
    void aBadValueNamesItsKey(String line, String replacement, String key, String problem) {
        String yaml = ISSUE_EXAMPLE.replace(line, replacement);
        ConfigException e = assertThrows(ConfigException.class, () -> file.parse(yaml, Path.of("/etc")));
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith(key + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }

    @Test
    void missingKeysAreNamed() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> file.parse(ISSUE_EXAMPLE.replace("metricsPort: 9464\n", ""), Path.of("/etc")));
        assertEquals("metricsPort", e.key());
        e = assertThrows(ConfigException.class, () -> file.parse("cpus: \"0\"\nperiod: 1s\nenforce: quota\n"
                + "metricsPort: 0\napplications: []\n", Path.of("/etc")));
        assertEquals("applications", e.key());
    }

    @Test
    void affinityNeedsAWholeCpuPerApplication() {
        String three = ISSUE_EXAMPLE.replace("enforce: quota", "enforce: affinity")
                + "  - name: wiki\n    pidFile: /x.pid\n    priority: 1\n";
        ConfigException e = assertThrows(ConfigException.class, () -> file.parse(three, Path.of("/etc")));
        assertEquals("enforce", e.key());
    }

    @Test
    void notYamlIsSaidSo() {
        ConfigException e = assertThrows(ConfigException.class, () -> file.parse("cpus: [0, 1\n", Path.of("/etc")));
        assertTrue(e.getMessage().contains("not valid YAML"), e.getMessage());
    }

    @Test
    void cpuListsReadAndWriteTheKernelSyntax() {
        assertEquals(List.of(0, 1, 2, 5), CpuList.parse("0-2,5"));
        assertEquals("0-2,5", CpuList.format(List.of(5, 0, 1, 2)));
        assertThrows(IllegalArgumentException.class, () -> CpuList.parse("0,0"));
    }
}
