package io.tlsadmit.peek;

import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.Verdict;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * Classifies an accepted connection's ClientHello before any TLS work, by peeking at the socket from C
 * ({@code recv(MSG_PEEK)}): nothing is consumed, so the TLS engine that takes the socket next reads the same stream.
 * Verdicts follow docs/verdicts.md, exactly as {@link io.tlsadmit.classifier.ClientHelloClassifier}.
 *
 * <p>The native library ships inside this jar. When it cannot load (another OS or architecture, a read-only
 * temporary directory, {@code -Dtlsadmit.peek.disable=true}) {@link #isAvailable()} is false,
 * {@link #unavailableReason()} says why, and callers classify with ssl-classifier after reading the bytes instead.
 * All methods are thread-safe.
 */
public final class NativePeek {

    private static final NativeLibrary.Outcome LOADED = NativeLibrary.loadConfigured();
    private static final Verdict[] VERDICTS = Verdict.values();

    // Layout of the long returned by peek0/classify0; mirrored in tlsadmit_jni.c.
    private static final int FLAG_EOF = 1;
    private static final int FLAG_TIMED_OUT = 2;
    private static final int FLAG_BUFFER_FULL = 4;

    private NativePeek() {
    }

    /** Whether the native library is loaded and the other methods may be called. */
    public static boolean isAvailable() {
        return LOADED.loaded();
    }

    /** Why the native library is unavailable; null when it is available. */
    public static String unavailableReason() {
        return LOADED.reason();
    }

    /**
     * Peeks at {@code channel} until its ClientHello can be classified or {@code timeoutMillis} pass. The peeked bytes
     * are left in {@code directBuf} (position 0, limit = bytes peeked), so facts can be re-read with the Java
     * classifier; nothing is consumed from the socket. Works on blocking and non-blocking channels alike.
     *
     * @param directBuf a direct buffer; its capacity bounds what is peeked (size it for the largest accepted hello,
     *     {@code policy.maxHelloLength()} plus a record header per 16 KiB)
     * @return the verdict; {@code INCOMPLETE} when the deadline passed or the buffer filled first
     * @throws EOFException when the client closed the connection before a verdict (the bytes it sent are in the buffer)
     * @throws IOException when the socket reports an error
     */
    public static Verdict peek(SocketChannel channel, ByteBuffer directBuf, ServerPolicy policy, int timeoutMillis)
            throws IOException {
        requireAvailable();
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(policy, "policy");
        requireDirect(directBuf);
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
        long packed = peek0(channel, directBuf, directBuf.capacity(), policy.maxVersion(), policy.maxHelloLength(),
                Math.max(0, timeoutMillis));
        int length = (int) (packed >>> 16);
        int flags = (int) (packed >>> 8) & 0xff;
        directBuf.clear().limit(length);
        if ((flags & FLAG_EOF) != 0) {
            throw new EOFException("client closed the connection after " + length
                    + " bytes, before its ClientHello was complete");
        }
        return VERDICTS[(int) (packed & 0xff)];
    }

    /** Classifies {@code direct}'s bytes from position to limit (which are left unchanged). */
    public static Verdict classify(ByteBuffer direct, ServerPolicy policy) {
        requireAvailable();
        Objects.requireNonNull(policy, "policy");
        requireDirect(direct);
        long packed = classify0(direct, direct.position(), direct.limit(), policy.maxVersion(),
                policy.maxHelloLength());
        return VERDICTS[(int) (packed & 0xff)];
    }

    /**
     * Sets {@code TCP_DEFER_ACCEPT} on a bound server socket: {@code accept()} then returns a connection only once
     * the client has sent data, so the first peek usually finds the whole hello.
     */
    public static void deferAccept(ServerSocketChannel channel, int seconds) throws IOException {
        requireAvailable();
        Objects.requireNonNull(channel, "channel");
        if (seconds < 0) {
            throw new IllegalArgumentException("seconds must be >= 0: " + seconds);
        }
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
        deferAccept0(channel, seconds);
    }

    /**
     * Drops up to {@code maxBytes} of what the client has sent and the socket holds now, without copying them and
     * without waiting, in one system call. Why: closing a socket with unread input makes the kernel answer with a
     * reset instead of an orderly FIN, and reading the input into Java to avoid that costs a switch to non-blocking
     * mode and a copy.
     *
     * @return the bytes dropped; 0 when none were there
     */
    public static int discard(SocketChannel channel, int maxBytes) throws IOException {
        requireAvailable();
        Objects.requireNonNull(channel, "channel");
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be > 0: " + maxBytes);
        }
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
        return discard0(channel, maxBytes);
    }

    /** CPUs this process may run on (its affinity mask), which may be fewer than the machine has. */
    public static int allowedCpus() {
        requireAvailable();
        return allowedCpus0();
    }

    /**
     * The numbers of the CPUs the calling thread may run on (its affinity mask), ascending: what
     * {@code Cpus_allowed_list} of {@code /proc/thread-self/status} lists, without the text. Why: the adaptive
     * budget reads the mask every control period, and a system call costs a fraction of generating and parsing that
     * file.
     *
     * @throws IOException when {@code sched_getaffinity} fails (a mask wider than 1024 CPUs)
     */
    public static int[] allowedCpuList() throws IOException {
        requireAvailable();
        return allowedCpuList0();
    }

    /**
     * The CPU time one of this process's threads has run, in nanoseconds, by its kernel task id (a directory name of
     * {@code /proc/self/task}): the scheduler's run time, the first field of that thread's {@code schedstat}, up to
     * now. Why: the adaptive budget reads the JIT compiler threads' CPU every control period, and one system call per
     * thread costs a fraction of reading and parsing a file per thread in a loop whose code is cold each period.
     *
     * @return the nanoseconds, or -1 when {@code tid} is no thread of this process (it has exited, or belongs to
     *         another process: the kernel answers only for the caller's own threads)
     */
    public static long threadCpuNanos(int tid) {
        requireAvailable();
        return threadCpuNanos0(tid);
    }

    private static void requireAvailable() {
        if (!LOADED.loaded()) {
            throw new IllegalStateException("native-peek is unavailable: " + LOADED.reason());
        }
    }

    private static void requireDirect(ByteBuffer buffer) {
        Objects.requireNonNull(buffer, "buffer");
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("native-peek needs a direct ByteBuffer");
        }
    }

    // Packed results: bits 0-7 verdict ordinal, 8-15 flags, 16-47 bytes peeked (peek0) or bytes needed (classify0).
    private static native long peek0(SocketChannel channel, ByteBuffer buffer, int capacity, int maxVersion,
            int maxHelloLength, int timeoutMillis) throws IOException;

    private static native long classify0(ByteBuffer buffer, int position, int limit, int maxVersion,
            int maxHelloLength);

    private static native void deferAccept0(ServerSocketChannel channel, int seconds) throws IOException;

    private static native int discard0(SocketChannel channel, int maxBytes) throws IOException;

    private static native int allowedCpus0();

    private static native int[] allowedCpuList0() throws IOException;

    private static native long threadCpuNanos0(int tid);
}
