package io.tlsadmit.bench;

import java.net.URI;
import java.nio.file.Path;

/**
 * The kind of server a run drives: Tomcat with the valve, or the Netty example server on one TLS engine. Each mode
 * (off, static, adaptive) gets a fresh one, pinned to CPU 0; the driver, the steps and the report are the same
 * whatever it is.
 */
interface ServerUnderTest {

    /** What runs, for the log and the summary ("Tomcat 11.0.25 on JDK 17"). */
    String description();

    /** The request every client sends: {@code workBlocks} SHA-256 blocks of 4 KiB of CPU work, then {@code 200}. */
    String requestPath(int workBlocks);

    /**
     * A fresh server for {@code mode}: {@code off} without the gate, {@code static} with a static budget of
     * {@code capacity} new handshakes per second, {@code adaptive} with the adaptive budget told nothing. Returns
     * once it serves requests, pinned to CPU 0.
     */
    Running start(String mode, double capacity) throws Exception;

    /** One started server; {@link #close()} ends its process. */
    interface Running extends AutoCloseable {
        long pid();

        int tlsPort();

        /** Where the gate's Prometheus text is served in plain HTTP (nothing there without a gate). */
        URI metrics();

        /**
         * Where to write the adaptive controller's trace, one line per control period, when the server closes: the
         * periods that explain a step's figures (valve README, "Tracing the controller"). Servers without one ignore
         * it.
         */
        default void keepControlTraceAt(Path file) {
        }

        @Override
        void close();
    }

    /** A started server as its process, ports and the way to stop it. */
    record Started(long pid, int tlsPort, URI metrics, Runnable stop) implements Running {
        @Override
        public void close() {
            stop.run();
        }
    }
}
