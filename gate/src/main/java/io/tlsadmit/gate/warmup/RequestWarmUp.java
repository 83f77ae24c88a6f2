package io.tlsadmit.gate.warmup;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The application's own pages, requested over the server's own TLS port for a while before the server takes
 * clients.
 *
 * <p>Why: a fresh JVM serves its first minute slowly, and under load it stays slow: its code waits for a JIT
 * whose threads share the CPUs with every busy worker. In the RUBiS experiment (one CPU, 4× the knee at once, 5 s
 * after the start) a fresh Tomcat with the adaptive budget spent 0.95–1.32 ms of CPU per reply over the crowd's
 * 10th to 30th second, the compiler threads 5–9 % of the CPU meanwhile; after 15 s of this warm-up, 0.81–0.89 ms,
 * and it completed 1.23–1.75× the sessions (a static budget 1.66–4.2×; `docs/benchmarks.md` section 4,
 * "2026-11-27, evening"). The handshake alone ({@link HandshakeWarmUp}) is a small part of that code; the
 * application's requests, its database driver and the server's request pipeline are the rest, and only real
 * requests through the real port compile them.
 *
 * <p>Each client binds its socket before connecting and puts that address in {@code clientAddresses}, so the server
 * can tell the warm-up's connections from everybody else's at accept (and close the others until it is warm). A
 * client sends a few keep-alive requests per connection and then reconnects, so that resumed handshakes and the
 * accept path are compiled too. The client trusts any certificate: nothing leaves the host, and the certificate is
 * the operator's own.
 */
public final class RequestWarmUp {

    private static final System.Logger LOG = System.getLogger(RequestWarmUp.class.getName());
    /** Requests per connection before a client reconnects (and resumes): a browser-like mix of both. */
    static final int REQUESTS_PER_CONNECTION = 8;
    /** A client that could not connect or complete this many times in a row gives up: the port is not serving. */
    static final int MAX_FAILURES_IN_A_ROW = 20;
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    private static final int READ_TIMEOUT_MILLIS = 10_000;
    /** Longest status or header line read; a longer one is a broken response. */
    private static final int MAX_LINE = 16 * 1024;

    private RequestWarmUp() {
    }

    /** Spans the per-second CPU figures are summed into for the log line. */
    static final int SUMMARY_BUCKETS = 12;

    /** One whole second of a warm-up: requests answered in it, and the process's CPU time then. */
    public record Second(long requests, long cpuNanos) {
    }

    /**
     * What a warm-up did.
     *
     * @param requests          responses read completely
     * @param byStatusClass     of those, how many had a 1xx, 2xx, 3xx, 4xx, 5xx status (index 0–4)
     * @param connections       TLS connections that completed their handshake
     * @param failures          connections or requests that failed (I/O error, broken response)
     * @param wallNanos         how long it ran
     * @param compileMillis     the JIT's compilation time over the warm-up, summed over its threads, as
     *                          {@link CompilationMXBean#getTotalCompilationTime()} reports it (elapsed, not CPU: on a
     *                          busy CPU it includes waiting for it); -1 where the JVM does not report it
     * @param compileMillisLastSecond  the same over its last second: close to 0 when it ran long enough
     * @param seconds           each whole second of the warm-up: requests answered and the process's CPU (the
     *                          server's side, the warm-up's own clients, which run in the same JVM, and the JIT's
     *                          threads); empty where the JVM does not report its CPU time
     * @param pathsNeverAnswered paths that never got a 2xx or 3xx: a typo, or a page needing a login
     * @param firstFailure      the first failure's description, or null
     */
    public record Result(long requests, long[] byStatusClass, long connections, long failures, long wallNanos,
            long compileMillis, long compileMillisLastSecond, List<Second> seconds,
            List<String> pathsNeverAnswered, String firstFailure) {

        @Override
        public String toString() {
            StringBuilder statuses = new StringBuilder();
            for (int i = 0; i < byStatusClass.length; i++) {
                if (byStatusClass[i] > 0) {
                    statuses.append(statuses.length() == 0 ? "" : ", ").append(i + 1).append("xx ").append(byStatusClass[i]);
                }
            }
            return String.format(Locale.ROOT, "%d requests (%s) on %d connections in %.1f s, %d failed%s; JIT"
                            + " compilations took %s during it and %s in its last second (summed over the compiler"
                            + " threads)%s", requests,
                    statuses.length() == 0 ? "none answered" : statuses, connections, wallNanos / 1e9, failures,
                    firstFailure == null ? "" : " (first: " + firstFailure + ")", millis(compileMillis),
                    millis(compileMillisLastSecond), cpuPerRequest());
        }

        /**
         * The process's CPU per request over the warm-up, in at most {@link #SUMMARY_BUCKETS} spans of whole seconds:
         * still falling in the last ones means the code was still getting faster when the warm-up ended.
         */
        private String cpuPerRequest() {
            if (seconds.isEmpty()) {
                return "";
            }
            int span = (seconds.size() + SUMMARY_BUCKETS - 1) / SUMMARY_BUCKETS;
            StringBuilder out = new StringBuilder();
            for (int from = 0; from < seconds.size(); from += span) {
                long requests = 0;
                long cpu = 0;
                for (Second second : seconds.subList(from, Math.min(seconds.size(), from + span))) {
                    requests += second.requests();
                    cpu += second.cpuNanos();
                }
                out.append(out.length() == 0 ? "" : ", ")
                        .append(requests == 0 ? "-" : String.format(Locale.ROOT, "%.2f", cpu / 1e6 / requests));
            }
            return "; process CPU per request over each " + (span == 1 ? "second" : span + " s") + ": " + out + " ms";
        }

        private static String millis(long ms) {
            return ms < 0 ? "an unknown time" : ms + " ms";
        }
    }

    /**
     * Requests {@code paths} in turn from {@code clients} threads over TLS to {@code server} until {@code duration}
     * has passed, each client from an address of its own bound on {@code server}'s address (so loopback for a
     * loopback or wildcard listener) and listed in {@code clientAddresses} while it is connected; clients stop
     * early once {@code serving} says the server is going away. Returns when all clients have stopped; never
     * throws for what the server does.
     */
    public static Result run(InetSocketAddress server, String hostHeader, List<String> paths, int clients,
            Duration duration, Set<SocketAddress> clientAddresses, BooleanSupplier serving) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(clientAddresses, "clientAddresses");
        if (paths.isEmpty() || clients < 1 || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("a warm-up needs paths, clients and a duration: " + paths + ", "
                    + clients + ", " + duration);
        }
        SSLSocketFactory factory;
        try {
            // one context: its session cache lets the reconnections resume
            factory = HandshakeWarmUp.trustingClientContext().getSocketFactory();
        } catch (GeneralSecurityException e) {
            return failed(paths, "no TLS client context: " + e);
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean timed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long jitStart = timed ? jit.getTotalCompilationTime() : 0;
        Tally tally = new Tally(paths.size());
        long start = System.nanoTime();
        long deadline = start + duration.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Client client = new Client(factory, server, hostHeader, paths, i, deadline, clientAddresses, serving, tally);
            Thread thread = new Thread(client, "tlsadmit-warm-up-" + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        long jitBeforeLastSecond = jitStart;
        List<Second> seconds = new ArrayList<>();
        try {
            long lastSecond = deadline - 1_000_000_000L;
            boolean lastSecondSeen = false;
            long nextSample = start + 1_000_000_000L;
            long requestsBefore = 0;
            long cpuBefore = processCpuNanos();
            for (Thread thread : threads) {
                while (thread.isAlive()) {
                    long now = System.nanoTime();
                    if (!lastSecondSeen && now >= lastSecond) {
                        jitBeforeLastSecond = timed ? jit.getTotalCompilationTime() : 0;
                        lastSecondSeen = true;
                    }
                    if (now >= nextSample) {
                        long requests = tally.requests.sum();
                        long cpuNow = processCpuNanos();
                        if (cpuNow >= 0 && cpuBefore >= 0) {
                            seconds.add(new Second(requests - requestsBefore, cpuNow - cpuBefore));
                        }
                        requestsBefore = requests;
                        cpuBefore = cpuNow;
                        nextSample += 1_000_000_000L;
                    }
                    long wake = Math.min(nextSample, lastSecondSeen ? nextSample : lastSecond);
                    thread.join(Math.max(1, (wake - System.nanoTime()) / 1_000_000L));
                }
            }
            if (!lastSecondSeen) {
                jitBeforeLastSecond = timed ? jit.getTotalCompilationTime() : 0; // ended early: its last second is now
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            threads.forEach(Thread::interrupt);
        }
        long jitEnd = timed ? jit.getTotalCompilationTime() : 0;
        long wall = System.nanoTime() - start;
        List<String> neverAnswered = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            if (tally.answeredByPath.get(i) == 0) {
                neverAnswered.add(paths.get(i));
            }
        }
        long[] statuses = new long[5];
        for (int i = 0; i < statuses.length; i++) {
            statuses[i] = tally.byStatusClass.get(i);
        }
        return new Result(tally.requests.sum(), statuses, tally.connections.sum(), tally.failures.sum(), wall,
                timed ? jitEnd - jitStart : -1, timed ? jitEnd - jitBeforeLastSecond : -1, List.copyOf(seconds),
                List.copyOf(neverAnswered), tally.firstFailure.get());
    }

    private static Result failed(List<String> paths, String why) {
        return new Result(0, new long[5], 0, 1, 0, -1, -1, List.of(), List.copyOf(paths), why);
    }

    /** The process's CPU time in nanoseconds, where the JVM reports it ({@code com.sun.management}); else -1. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    /** Counts shared by the clients. */
    private static final class Tally {
        final LongAdder requests = new LongAdder();
        final LongAdder connections = new LongAdder();
        final LongAdder failures = new LongAdder();
        final AtomicLongArray byStatusClass = new AtomicLongArray(5);
        final AtomicLongArray answeredByPath;
        final AtomicReference<String> firstFailure = new AtomicReference<>();

        Tally(int paths) {
            answeredByPath = new AtomicLongArray(paths);
        }

        void failed(String what) {
            failures.increment();
            firstFailure.compareAndSet(null, what);
        }
    }

    private static final class Client implements Runnable {
        private final SSLSocketFactory factory;
        private final InetSocketAddress server;
        private final String hostHeader;
        private final List<String> paths;
        private final long deadline;
        private final Set<SocketAddress> clientAddresses;
        private final BooleanSupplier serving;
        private final Tally tally;
        private int next;

        Client(SSLSocketFactory factory, InetSocketAddress server, String hostHeader, List<String> paths, int first,
                long deadline, Set<SocketAddress> clientAddresses, BooleanSupplier serving, Tally tally) {
            this.factory = factory;
            this.server = server;
            this.hostHeader = hostHeader;
            this.paths = paths;
            this.next = first; // clients start at different pages
            this.deadline = deadline;
            this.clientAddresses = clientAddresses;
            this.serving = serving;
            this.tally = tally;
        }

        @Override
        public void run() {
            int failuresInARow = 0;
            while (System.nanoTime() < deadline && serving.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
                if (connection()) {
                    failuresInARow = 0;
                } else if (++failuresInARow >= MAX_FAILURES_IN_A_ROW) {
                    LOG.log(System.Logger.Level.WARNING, "tlsadmit: a warm-up client gave up after "
                            + failuresInARow + " failures in a row: " + tally.firstFailure.get());
                    return;
                } else {
                    try {
                        Thread.sleep(50); // a server that is not answering yet is not hammered
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }

        /** One connection: handshake, up to {@link #REQUESTS_PER_CONNECTION} requests; false if it failed. */
        private boolean connection() {
            Socket plain = new Socket();
            SocketAddress local = null;
            try {
                plain.bind(new InetSocketAddress(server.getAddress(), 0));
                local = plain.getLocalSocketAddress();
                clientAddresses.add(local); // before connecting: the server checks it at accept
                plain.connect(server, CONNECT_TIMEOUT_MILLIS);
                plain.setSoTimeout(READ_TIMEOUT_MILLIS);
                plain.setTcpNoDelay(true);
                try (SSLSocket tls = (SSLSocket) factory.createSocket(plain, hostHeader, server.getPort(), true)) {
                    tls.startHandshake();
                    tally.connections.increment();
                    OutputStream out = tls.getOutputStream();
                    InputStream in = new BufferedInputStream(tls.getInputStream());
                    for (int i = 0; i < REQUESTS_PER_CONNECTION && System.nanoTime() < deadline; i++) {
                        int path = next++ % paths.size();
                        out.write(("GET " + paths.get(path) + " HTTP/1.1\r\nHost: " + hostHeader
                                + "\r\nUser-Agent: tlsadmit-warm-up\r\nAccept: */*\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        HttpResponse response = HttpResponse.read(in);
                        tally.requests.increment();
                        int statusClass = response.status() / 100;
                        if (statusClass >= 1 && statusClass <= 5) {
                            tally.byStatusClass.incrementAndGet(statusClass - 1);
                        }
                        if (statusClass == 2 || statusClass == 3) {
                            tally.answeredByPath.incrementAndGet(path);
                        }
                        if (response.closes()) {
                            break;
                        }
                    }
                }
                return true;
            } catch (IOException | RuntimeException e) {
                tally.failed(e.getClass().getSimpleName() + ": " + e.getMessage());
                return false;
            } finally {
                try {
                    plain.close();
                } catch (IOException ignored) {
                    // closing a loopback socket; nothing to do about it
                }
                if (local != null) {
                    clientAddresses.remove(local);
                }
            }
        }
    }

    /**
     * An HTTP/1.1 response read to its end: Content-Length, chunked, or until the server closes. Only what the
     * warm-up needs; the body is read and dropped.
     */
    record HttpResponse(int status, boolean closes) {

        static HttpResponse read(InputStream in) throws IOException {
            String statusLine = line(in);
            while (statusLine.isEmpty()) {
                statusLine = line(in); // tolerated before a status line (RFC 9112 §2.2)
            }
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP/1.x status line: " + statusLine);
            }
            int status;
            try {
                status = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                throw new IOException("not an HTTP/1.x status line: " + statusLine);
            }
            long length = -1;
            boolean chunked = false;
            boolean closes = parts[0].equals("HTTP/1.0");
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                int colon = header.indexOf(':');
                if (colon <= 0) {
                    throw new IOException("broken header line: " + header);
                }
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
                switch (name) {
                    case "content-length" -> {
                        try {
                            length = Long.parseLong(value);
                        } catch (NumberFormatException e) {
                            throw new IOException("broken Content-Length: " + value);
                        }
                    }
                    case "transfer-encoding" -> chunked = value.endsWith("chunked");
                    case "connection" -> closes = value.contains("close") || (closes && !value.contains("keep-alive"));
                    default -> { }
                }
            }
            if (status / 100 == 1 || status == 204 || status == 304) {
                return status / 100 == 1 ? read(in) : new HttpResponse(status, closes);
            }
            if (chunked) {
                for (long size = chunkSize(line(in)); size > 0; size = chunkSize(line(in))) {
                    skip(in, size);
                    if (!line(in).isEmpty()) {
                        throw new IOException("no CRLF after a chunk");
                    }
                }
                while (!line(in).isEmpty()) {
                    // trailer fields, dropped
                }
            } else if (length >= 0) {
                skip(in, length);
            } else {
                while (in.read() >= 0) {
                    // no length and not chunked: the body ends with the connection
                }
                return new HttpResponse(status, true);
            }
            return new HttpResponse(status, closes);
        }

        private static long chunkSize(String line) throws IOException {
            int end = line.indexOf(';');
            try {
                long size = Long.parseLong((end < 0 ? line : line.substring(0, end)).trim(), 16);
                if (size < 0) {
                    throw new IOException("negative chunk size: " + line);
                }
                return size;
            } catch (NumberFormatException e) {
                throw new IOException("broken chunk size: " + line);
            }
        }

        private static void skip(InputStream in, long bytes) throws IOException {
            for (long left = bytes; left > 0; ) {
                long skipped = in.skip(left);
                if (skipped <= 0) {
                    if (in.read() < 0) {
                        throw new IOException("the body ended " + left + " bytes early");
                    }
                    skipped = 1;
                }
                left -= skipped;
            }
        }

        /** A line without its CRLF (or LF); an IOException at the end of the stream or past {@link #MAX_LINE}. */
        private static String line(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("the connection closed mid-response");
                }
                if (line.length() >= MAX_LINE) {
                    throw new IOException("a response line over " + MAX_LINE + " bytes");
                }
                line.append((char) c);
            }
            int end = line.length();
            return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
        }
    }
}
