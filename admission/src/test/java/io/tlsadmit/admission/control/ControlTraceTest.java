package io.tlsadmit.admission.control;

import static io.tlsadmit.admission.HandshakeKind.FULL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.SimulatedClock;
import io.tlsadmit.admission.cost.HandshakeCost;
import io.tlsadmit.admission.cpu.CpuAllocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trace through java.util.logging, as Tomcat's JULI configures it. */
class ControlTraceTest {

    @TempDir
    Path noCgroups;

    private final SimulatedClock clock = new SimulatedClock();
    private final List<String> lines = new ArrayList<>();
    private final Logger logger = Logger.getLogger(ControlTrace.LOGGER);
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (isLoggable(record)) {
                lines.add(record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level levelBefore;

    @BeforeEach
    void listen() {
        levelBefore = logger.getLevel();
        capture.setLevel(Level.ALL);
        logger.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(capture);
        logger.setLevel(levelBefore);
    }

    private AdmissionController controllerWithOnePeriod() {
        AdmissionController controller = new AdmissionController(new CpuAllocation(noCgroups, () -> 2),
                new HandshakeCost(), clock);
        controller.setName("https-jsse-nio-8443");
        AtomicLong processCpu = new AtomicLong();
        controller.setProcessCpuTime(processCpu::get);
        for (int i = 0; i < 10; i++) {
            controller.tryAcquireFull();
            controller.handshakeCompleted(FULL, 0x0304, 4_000_000, 6_000_000);
        }
        controller.recordQueueDelay(TimeUnit.MILLISECONDS.toNanos(3));
        processCpu.addAndGet(10 * 4_000_000 + 210_000_000); // 0.25 s of CPU in the period: 0.04 s of it handshakes
        clock.advance(250, TimeUnit.MILLISECONDS);
        controller.tick(clock.getAsLong());
        return controller;
    }

    @Test
    void offByDefault() {
        logger.setLevel(Level.INFO);
        controllerWithOnePeriod();
        assertTrue(lines.isEmpty(), "INFO is below DEBUG: " + lines);
    }

    @Test
    void atFineEveryPeriodIsOneLineOfItsMeasurementAndDecision() {
        logger.setLevel(Level.FINE);
        AdmissionController controller = controllerWithOnePeriod();
        assertEquals(1, lines.size(), lines.toString());

        Map<String, String> fields = new HashMap<>();
        for (String pair : lines.get(0).split(" ")) {
            String[] kv = pair.split("=", 2);
            fields.put(kv[0], kv[1]);
        }
        assertEquals(List.of("connector", "t", "period_ms", "cpus", "cpu_source", "used", "busy", "busy_smoothed",
                "compiler", "admitted_per_s", "binding", "queue_delay_ms", "run_queue", "stretch", "cost_ms",
                "cost_measured", "client_cost_ms", "correction", "model_rate", "guard", "rate", "burst"),
                List.of(lines.get(0).replaceAll("=\\S*", "").split(" ")));
        assertEquals("https-jsse-nio-8443", fields.get("connector"));
        assertEquals("250.0", fields.get("period_ms"));
        assertEquals("2.000", fields.get("cpus"));
        assertEquals("AFFINITY", fields.get("cpu_source"));
        assertEquals("1.000", fields.get("used"), "0.25 s of CPU in 0.25 s");
        assertEquals("0.840", fields.get("busy"), "less the handshakes' 0.04 s");
        assertEquals("40.0", fields.get("admitted_per_s"));
        assertEquals("3.0", fields.get("queue_delay_ms"));
        assertEquals("1.00", fields.get("run_queue"), "2 CPUs × (1.5 − 1): one thread waiting beside them");
        assertEquals("1.500", fields.get("stretch"), "6 ms of wall time for each 4 ms of CPU");
        assertEquals("4.000", fields.get("cost_ms"));
        assertEquals("true", fields.get("cost_measured"));
        assertEquals(String.format(java.util.Locale.ROOT, "%.1f", controller.fullHandshakesPerSecond()),
                fields.get("rate"));
    }
}
