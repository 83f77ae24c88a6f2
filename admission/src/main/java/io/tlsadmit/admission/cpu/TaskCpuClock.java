package io.tlsadmit.admission.cpu;

/**
 * The CPU time one of this process's threads has run, by its kernel task id (a directory name of
 * {@code /proc/self/task}), in nanoseconds: on Linux the thread's CPU clock ({@code clock_gettime} on the clock id
 * the kernel gives that task, native-peek's {@code threadCpuNanos}), the same run time as the first field of its
 * {@code schedstat}. Any thread of the process, not only the caller: the gate's {@code ThreadCpuClock} reads the
 * calling thread's.
 *
 * <p>Why a clock beside the files: {@link CompilerThreadsCpu} reads the JIT compiler threads every control period, and
 * on 2026-11-28 (2-vCPU AMD guest, once every 250 ms, so with cold caches) two threads' {@code schedstat} files cost a
 * median 143 µs of CPU a period against 48 through this clock: a file read from Java runs a long code path each period
 * (the channel, the decoding, the parsing) where the clock is one system call per thread.
 */
@FunctionalInterface
public interface TaskCpuClock {

    /**
     * @return the thread's CPU time in nanoseconds, or a negative value when {@code tid} is no thread of this process
     *         (it has exited) or cannot be read
     */
    long cpuNanos(int tid);
}
