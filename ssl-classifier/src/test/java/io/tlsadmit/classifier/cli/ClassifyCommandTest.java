package io.tlsadmit.classifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassifyCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private int run(String... args) {
        return ClassifyCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String[] lines() {
        return out.toString(StandardCharsets.UTF_8).split("\n");
    }

    private Path vector(String name) {
        return Path.of(System.getProperty("tlsadmit.root", ".."), "testdata/clienthello", name);
    }

    @Test
    void printsOneJsonLinePerFileInArgumentOrder() throws IOException {
        Path http = Files.write(dir.resolve("http.bin"), "GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(0, run(vector("curl-server13-2-resumed.bin").toString(), http.toString()));
        String[] lines = lines();
        assertEquals(2, lines.length);
        assertTrue(lines[0].contains("\"verdict\":\"RESUME_PSK\""), lines[0]);
        assertTrue(lines[1].startsWith("{\"file\":\"" + http + "\",\"verdict\":\"NOT_TLS\""), lines[1]);
    }

    @Test
    void serverMaxVersionChangesTheVerdict() {
        assertEquals(0, run("--server-max-version", "1.2", vector("curl-server13-2-resumed.bin").toString()));
        assertTrue(lines()[0].contains("\"verdict\":\"RESUME_SESSION_ID\""), lines()[0]);
    }

    @Test
    void anUnreadableFileIsReportedTheOthersStillClassifiedAndTheExitIs2() {
        assertEquals(2, run(dir.resolve("missing.bin").toString(), vector("curl-server13-1-new.bin").toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("missing.bin"));
        assertEquals(1, lines().length);
    }

    @Test
    void usageErrorsExitWith2AndSayWhy() {
        assertEquals(2, run());
        assertEquals(2, run("--server-max-version", "1.4", "x.bin"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("1.2 or 1.3"));
        assertEquals(2, run("--max-hello-length", "lots", "x.bin"));
        assertEquals(2, run("--frobnicate", "x.bin"));
        assertEquals(2, run("--server-max-version"));
    }
}
