package io.tlsadmit.gate;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The CPU time of the calling thread, which an adapter reads around each step of a handshake it runs
 * ({@link ConnectionAdmission#addHandshakeStep}): what the handshake cost the server, for the budget's cost
 * model, whichever thread ran the step (a worker, or an engine's delegated task).
 */
public final class ThreadCpuClock {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean SUPPORTED = THREADS.isCurrentThreadCpuTimeSupported();

    private ThreadCpuClock() {
    }

    /** Whether this JVM measures thread CPU time; without it handshakes are recorded with a cost of 0 (unknown). */
    public static boolean isSupported() {
        return SUPPORTED;
    }

    /** The calling thread's CPU time in nanoseconds, from an arbitrary origin; 0 when not {@link #isSupported()}. */
    public static long nanos() {
        return SUPPORTED ? THREADS.getCurrentThreadCpuTime() : 0;
    }
}
