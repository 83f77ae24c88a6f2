package io.tlsadmit.admission.cpu;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * A file the kernel generates ({@code /proc}, a cgroup's limit file) kept open and read again from its start at
 * each {@link #read()}.
 *
 * <p>Why: the adaptive budget's control loop reads the same seven or so files four times a second, and opening one is
 * most of what reading it costs: the path walked through {@code /proc} (a {@code /proc/self/task/<tid>} lookup builds
 * its entries anew), a descriptor allocated and freed. On 2026-11-28 (2-vCPU AMD EPYC guest, JDK 17, a throwaway
 * probe reading the loop's files one at a time, each read after 125 ms asleep) a read cost the thread 114–131 µs of
 * CPU opened and closed each time against 23–41 µs kept open, with the code compiled (235–257 against 48–69
 * interpreted, as in a JVM's first minutes); in the control loop, which reads them one after another, the loop's CPU
 * fell by 12–26 % under load ({@code docs/benchmarks.md} section 7). A generated file is produced afresh for a read
 * from offset 0 (the kernel's {@code seq_file} starts over), so a held descriptor sees a change exactly as a newly
 * opened one would.
 *
 * <p>What a held descriptor does not follow: a path that comes to name another file. The kernel's files are never
 * replaced; a process moved to another cgroup reads its limits from other paths, which their readers open anew
 * ({@link CgroupCpuQuota}), and a removed cgroup directory or an exited thread fails the read, which closes the file
 * so that the next call opens the path again.
 *
 * <p>Not thread-safe: each owner reads it under its own lock or from one thread.
 */
final class ProcFile implements Closeable {

    /** Larger than any of these files: {@code /proc/stat} is about 150 bytes per CPU. */
    private static final int MAX_BYTES = 4 << 20;

    private final Path path;
    private FileChannel channel;
    private ByteBuffer buffer = ByteBuffer.allocate(4096);

    ProcFile(Path path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    Path path() {
        return path;
    }

    /**
     * The file's whole content now, decoded as UTF-8 (a cgroup path may hold any byte but '/'; the rest is ASCII).
     *
     * @throws IOException when it cannot be opened or read (the file closed then; the next call opens it again)
     */
    String read() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        }
        try {
            buffer.clear();
            long position = 0;
            while (true) {
                if (!buffer.hasRemaining()) {
                    if (buffer.capacity() >= MAX_BYTES) {
                        throw new IOException(path + " is larger than " + MAX_BYTES + " bytes");
                    }
                    buffer = ByteBuffer.allocate(buffer.capacity() * 2).put(buffer.flip());
                }
                int read = channel.read(buffer, position);
                if (read < 0) {
                    break;
                }
                position += read;
            }
            return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Releases the descriptor; a later {@link #read()} opens the file again. */
    @Override
    public void close() {
        FileChannel open = channel;
        channel = null;
        if (open != null) {
            try {
                open.close();
            } catch (IOException e) {
                // nothing was written; the descriptor is released either way
            }
        }
    }
}
