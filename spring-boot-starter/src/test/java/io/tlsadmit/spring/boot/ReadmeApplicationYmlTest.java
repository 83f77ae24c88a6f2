package io.tlsadmit.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.tomcat.AdmissionNioProtocol;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The complete application.yml of README.md is one an application really starts with. */
class ReadmeApplicationYmlTest {

    private static final String MARKER = "<!-- application.yml";

    @Test
    void theReadmeApplicationYmlStartsAGatedServer() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int block = readme.indexOf("```yaml\n", readme.indexOf(MARKER)) + "```yaml\n".length();
        String yaml = readme.substring(block, readme.indexOf("```", block));
        Path file = Files.createDirectories(Path.of("target")).resolve("readme-application.yml");
        Files.writeString(file, yaml);
        // Its ports and keystore are an example's: the test's win, as command-line arguments would.
        List<String> overrides = List.of("spring.config.location=file:" + file.toAbsolutePath(),
                "spring.ssl.bundle.jks.web.keystore.location=file:" + BootApp.KEYSTORE.path(),
                "spring.ssl.bundle.jks.web.keystore.password=" + BootApp.KEYSTORE.password());
        try (BootApp app = BootApp.start(overrides)) {
            AdmissionNioProtocol protocol = (AdmissionNioProtocol) app.connector().getProtocolHandler();
            assertEquals("adaptive", protocol.getBudget());
            assertEquals("500.0", protocol.getMaxFullHandshakesPerSecond());
            assertEquals("0.95", protocol.getTargetUtilization());
            assertEquals("10000", protocol.getHelloTimeout());
            HttpResponse<String> response = app.https(HttpClient.Version.HTTP_2, "/");
            assertEquals(200, response.statusCode());
            assertEquals(HttpClient.Version.HTTP_2, response.version());
            assertTrue(app.prometheus().has("tlsadmit_budget_full_handshakes_per_second"));
        }
    }
}
