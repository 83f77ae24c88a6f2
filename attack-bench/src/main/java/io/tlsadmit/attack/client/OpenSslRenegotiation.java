package io.tlsadmit.attack.client;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The renegotiation with the reference client: {@code openssl s_client -tls1_2}, once with
 * {@code -sess_out} (the full handshake), then with {@code -sess_in} (resumed) typing {@code R}: s_client
 * renegotiates on a line starting with R (without {@code -ign_eof}/{@code -quiet}). What it printed after
 * "RENEGOTIATING" says whether the server went along.
 */
public final class OpenSslRenegotiation {
    private OpenSslRenegotiation() {
    }

    public record Outcome(boolean firstHandshake, boolean resumed, boolean renegotiationStarted,
                          String afterRenegotiating, String verdict) {
    }

    public static Outcome run(int port, Path caFile, Path workDir) throws IOException, InterruptedException {
        Path session = workDir.resolve("openssl-renegotiation.session");
        Files.deleteIfExists(session);
        String first = sClient(port, caFile, List.of("-sess_out", session.toString()), "");
        boolean firstOk = first.contains("Verify return code: 0") && Files.exists(session);
        String second = sClient(port, caFile, List.of("-sess_in", session.toString()), "R\n");
        boolean resumed = second.contains("Reused, ");
        int at = second.indexOf("RENEGOTIATING");
        String after = at < 0 ? "" : second.substring(at + "RENEGOTIATING".length()).strip();
        List<String> lines = new ArrayList<>();
        for (String line : after.split("\n")) {
            if (!line.isBlank() && lines.size() < 6) {
                lines.add(line.strip());
            }
        }
        String shown = String.join(" | ", lines);
        String verdict;
        if (at < 0) {
            verdict = "no renegotiation attempted (s_client did not get that far)";
        } else if (after.contains("verify return:1") || after.contains("verify return:0")) {
            verdict = "renegotiation SUCCEEDED (the server sent its certificate again: a full handshake)";
        } else if (after.toLowerCase().contains("alert") || after.toLowerCase().contains("error")) {
            verdict = "renegotiation REFUSED (alert/error)";
        } else {
            verdict = "renegotiation did not complete (no handshake result before the connection ended)";
        }
        return new Outcome(firstOk, resumed, at >= 0, shown, verdict);
    }

    private static String sClient(int port, Path caFile, List<String> extra, String input)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-tls1_2", "-connect", "127.0.0.1:" + port,
                "-servername", TlsDial.HOST, "-CAfile", caFile.toString()));
        command.addAll(extra);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.US_ASCII));
            stdin.flush();
            // stdin stays open a moment: EOF makes s_client close at once, before the server could answer
            Thread.sleep(input.isEmpty() ? 500 : 2_500);
        } catch (IOException e) {
            // s_client already exited: its output says why
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
