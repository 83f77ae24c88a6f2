package io.tlsadmit.experiment.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.testing.TestKeystore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HAProxy itself (the installed package, {@code haproxy -c}) reads every configuration the experiment can write:
 * each HAProxy mode, each TLS version, with and without a rate, on one thread and on the CPU change's two. A
 * warning fails too: HAProxy goes on after one, but then runs something else than the README shows.
 */
class HaproxyConfigCheckIT {

    @TempDir
    Path dir;

    @Test
    void haproxyAcceptsEveryConfigurationWithoutAWarning() throws Exception {
        TestKeystore keystore = TestKeystore.create(dir.resolve("keystore"));
        Path pem = Haproxy.certificateAndKey(dir, keystore);
        Path keys = Haproxy.writeTicketKeys(dir.resolve("tls-ticket-keys"));
        List<String> checked = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            if (!mode.haproxy()) {
                continue;
            }
            for (String tls : List.of("1.3", "1.2")) {
                for (int rate : List.of(0, 70)) {
                    for (int threads : List.of(1, 2)) {
                        String name = String.join("-", mode.label(), tls, Integer.toString(rate),
                                Integer.toString(threads));
                        Path config = dir.resolve(name + ".cfg");
                        Files.writeString(config,
                                new Haproxy.Config(mode, pem, keys, tls, 18443, 18080, rate, 1000, threads).text());
                        String output = check(config);
                        assertTrue(output.startsWith("exit 0\n") && output.contains("Configuration file is valid"),
                                name + ":\n" + output);
                        assertFalse(output.contains("[WARNING]") || output.contains("[ALERT]"), name + ":\n" + output);
                        checked.add(name);
                    }
                }
            }
        }
        assertEquals(3 * 2 * 2 * 2, checked.size());
    }

    @Test
    void aBrokenConfigurationIsRefused() throws Exception {
        // the check above can fail: haproxy -c does reject what it cannot run
        Path config = dir.resolve("broken.cfg");
        Files.writeString(config, new Haproxy.Config(Mode.HAPROXY_HELLO, dir.resolve("no-such.pem"),
                dir.resolve("no-such-keys"), "1.3", 18443, 18080, 1, 1000, 1).text());
        String output = check(config);
        assertFalse(output.contains("Configuration file is valid"), output);
        assertTrue(output.contains("no-such.pem"), output);
    }

    private static String check(Path config) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("haproxy", "-c", "-f", config.toString()).redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "haproxy -c did not finish");
        return "exit " + process.exitValue() + "\n" + output;
    }
}
