package io.tlsadmit.experiment.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.testing.FreePort;
import io.tlsadmit.testing.TestKeystore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code haproxy-hello} takes for a resumption, measured on the 38 ClientHellos real clients sent (testdata/,
 * with what a real server then did): each is replayed to the mode at a rate of 0, where a hello that looks new is
 * refused unanswered and any other reaches the TLS frontend, which answers it. It passes exactly the TLS 1.2 ticket
 * resumptions: every TLS 1.3 (PSK) and every session-id resumption is refused as new (README.md, "haproxy-hello").
 * No Tomcat: the TLS frontend answers before any request would reach it.
 */
class HaproxyHelloCapturesIT {

    private static final Pattern FIELD = Pattern.compile("\"(server_max_version|expected_verdict)\": \"([^\"]+)\"");

    @TempDir
    Path dir;

    @Test
    void onlyTls12TicketResumptionsLookLikeResumptions() throws IOException {
        TestKeystore keystore = TestKeystore.create(dir.resolve("keystore"));
        Path pem = Haproxy.certificateAndKey(dir, keystore);
        Path keys = Haproxy.writeTicketKeys(dir.resolve("tls-ticket-keys"));
        Map<String, Haproxy> byVersion = new TreeMap<>();
        try {
            for (String tls : List.of("1.2", "1.3")) {
                int port = FreePort.pick();
                // no backend listens at port 9: nothing here gets that far
                byVersion.put(tls, Haproxy.start(dir.resolve("haproxy-" + tls), new Haproxy.Config(Mode.HAPROXY_HELLO,
                        pem, keys, tls, port, 9, 0, 1000, 1)));
            }
            Map<String, List<String>> passedByVerdict = new TreeMap<>();
            Map<String, List<String>> refusedByVerdict = new TreeMap<>();
            List<Path> hellos;
            try (Stream<Path> files = Files.list(Path.of(System.getProperty("tlsadmit.root"), "testdata",
                    "clienthello"))) {
                hellos = files.filter(f -> f.toString().endsWith(".bin")).sorted().toList();
            }
            for (Path hello : hellos) {
                String name = hello.getFileName().toString().replace(".bin", "");
                Map<String, String> sidecar = sidecar(hello.resolveSibling(name + ".json"));
                boolean answered = answered(byVersion.get(sidecar.get("server_max_version")).port(),
                        Files.readAllBytes(hello));
                (answered ? passedByVerdict : refusedByVerdict)
                        .computeIfAbsent(sidecar.get("expected_verdict"), v -> new ArrayList<>()).add(name);
            }
            assertEquals(38, hellos.size(), "testdata/clienthello holds 38 recorded hellos");
            // the table in README.md
            assertEquals(Map.of("RESUME_TICKET", 7), counts(passedByVerdict), "passed: " + passedByVerdict);
            assertEquals(Map.of("NEW", 20, "RESUME_PSK", 8, "RESUME_SESSION_ID", 3), counts(refusedByVerdict),
                    "refused: " + refusedByVerdict);
        } finally {
            byVersion.values().forEach(Haproxy::close);
        }
    }

    /** Whether anything came back for the hello: HAProxy refuses by closing without a byte. */
    private static boolean answered(int port, byte[] hello) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(hello);
            socket.getOutputStream().flush();
            try {
                return socket.getInputStream().read() >= 0;
            } catch (SocketTimeoutException e) {
                throw new IllegalStateException("neither refused nor answered within 10 s", e);
            } catch (IOException reset) {
                return false; // a reset is a refusal too
            }
        }
    }

    private static Map<String, Integer> counts(Map<String, List<String>> byVerdict) {
        Map<String, Integer> counts = new TreeMap<>();
        byVerdict.forEach((verdict, names) -> counts.put(verdict, names.size()));
        return counts;
    }

    private static Map<String, String> sidecar(Path json) throws IOException {
        Map<String, String> fields = new TreeMap<>();
        Matcher m = FIELD.matcher(Files.readString(json));
        while (m.find()) {
            fields.put(m.group(1), m.group(2));
        }
        return fields;
    }
}
