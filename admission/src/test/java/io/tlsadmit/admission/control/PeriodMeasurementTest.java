package io.tlsadmit.admission.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How a period's measurement tells the threads waiting for a CPU. */
class PeriodMeasurementTest {

    private static PeriodMeasurement on(double cpus, double stretch) {
        return new PeriodMeasurement(250_000_000, cpus, 6e6, 0.5, 1, 0, 0.3, 50, 1e6, true, stretch);
    }

    @Test
    void fromTheStretchEveryThreadBeyondTheCpusWaits() {
        // 5 threads runnable on 2 CPUs: each runs 2/5 of the time, so a step's wall time is 2.5 × its CPU time
        assertEquals(3, on(2, 2.5).waitingThreads(), 1e-9);
        assertEquals(0, on(2, 1).waitingThreads(), 1e-9, "never waited");
        assertEquals(0.5, on(0.5, 2).waitingThreads(), 1e-9,
                "half a CPU by quota: one thread alone runs half the time");
    }

    @Test
    void notMeasuredIsNotANumber() {
        assertTrue(Double.isNaN(on(2, Double.NaN).waitingThreads()));
        assertTrue(Double.isNaN(on(0, 3).waitingThreads()), "no CPUs to wait for");
    }
}
