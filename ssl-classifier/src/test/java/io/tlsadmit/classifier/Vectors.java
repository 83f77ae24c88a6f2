package io.tlsadmit.classifier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The real-client ClientHellos in {@code testdata/clienthello/} with what the real server did. */
record Vectors(String name, byte[] bytes, String serverMaxVersion, String handshake, String expectedVerdict,
               int offeredSessionIdLength, int offeredTicketLength, int offeredPskIdentities, String offeredSni,
               int offeredHelloLength, int offeredExtensions) {

    static Path directory() {
        String root = System.getProperty("tlsadmit.root");
        Path base = root == null ? Path.of("..") : Path.of(root);
        return base.resolve("testdata/clienthello");
    }

    static List<Vectors> all() {
        try (Stream<Path> files = Files.list(directory())) {
            List<Vectors> vectors = files.filter(p -> p.toString().endsWith(".bin")).sorted().map(Vectors::load).toList();
            if (vectors.size() < 20) {
                throw new IllegalStateException("expected the real-client vectors in " + directory() + ", found " + vectors.size());
            }
            return vectors;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Vectors load(Path bin) {
        try {
            String name = bin.getFileName().toString();
            String json = Files.readString(bin.resolveSibling(name.replace(".bin", ".json")));
            return new Vectors(name, Files.readAllBytes(bin), text(json, "server_max_version"), text(json, "handshake"),
                    text(json, "expected_verdict"), number(json, "session_id_len"), number(json, "ticket_len"),
                    number(json, "psk_identities"), nullableText(json, "sni"),
                    number(json, "hello_length"), number(json, "extensions"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ServerPolicy policy() {
        return ServerPolicy.of(serverMaxVersion, ServerPolicy.DEFAULT.maxHelloLength());
    }

    boolean resumed() {
        return handshake.equals("resumed");
    }

    private static String text(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no \"" + key + "\" in sidecar");
        }
        return m.group(1);
    }

    private static String nullableText(String json, String key) {
        return json.matches("(?s).*\"" + key + "\"\\s*:\\s*null.*") ? null : text(json, key);
    }

    private static int number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*(-?\\d+)").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no \"" + key + "\" in sidecar");
        }
        return Integer.parseInt(m.group(1));
    }

    @Override
    public String toString() {
        return name;
    }
}
