package io.tlsadmit.admission.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The {@link ControlLaw}'s correction, period by period: what it learns from and what it must not. One CPU, a
 * target of 0.97, a 6 ms handshake, the budget binding and connections starting at once (the guard stays open).
 */
class ControlLawCorrectionTest {

    private static final double TARGET = 0.97;
    private static final double DELAY_TARGET_NANOS = 50e6;
    private static final long PERIOD = 250_000_000;

    /** A binding period on one CPU that used {@code used} CPUs for the sessions and handshakes and {@code compiling} for the JIT. */
    private static PeriodMeasurement binding(double used, double compiling) {
        return new PeriodMeasurement(PERIOD, 1, 6e6, used / 2, used, compiling, 60 * 6e6 / 1e9, 60, 1e6, true);
    }

    private static ControlState run(ControlState state, PeriodMeasurement m, int periods) {
        for (int i = 0; i < periods; i++) {
            state = ControlLaw.next(state, m, TARGET, DELAY_TARGET_NANOS, Double.NaN);
        }
        return state;
    }

    @Test
    void cpusThatStayIdleWhileClientsAreRefusedAreLearnedHalfAPeriodUpToHalfTheCpus() {
        ControlState state = ControlState.INITIAL;
        double[] expected = {0.1, 0.2, 0.3, 0.4, 0.5, 0.5};
        for (double correction : expected) {
            state = run(state, binding(0.77, 0), 1);
            assertEquals(correction, state.correctionCpus(), 1e-9);
        }
    }

    @Test
    void cpusTheCompilerRunsOnAreNotIdle() {
        // A fresh JVM compiles beside the clients: the model leaves the compiler's CPU out of the load (it stops by
        // itself), but it is no room for more clients either. Learned as idle, the correction wound up to a third of a
        // CPU on the real server while the compiler ran, and overloaded the CPUs once it stopped.
        ControlState state = run(ControlState.INITIAL, binding(0.77, 0.2), 20);
        assertEquals(0, state.correctionCpus(), 1e-9);
    }

    @Test
    void oneIdlePeriodAmongFullOnesTeachesHalfWhatIdleThatPersistsDoes() {
        // One period's CPU readings are noisy (on the real server busy by 0.24 CPU, used by 0.07, per 250 ms period);
        // learning the whole of each dip wound the correction up under overload, and pages queued behind the clients
        // it let in.
        ControlState full = run(ControlState.INITIAL, binding(TARGET, 0), 8);
        assertEquals(0, full.correctionCpus(), 1e-9);
        ControlState dip = run(full, binding(0.77, 0), 1);
        assertEquals(0.5 * 0.5 * 0.2, dip.correctionCpus(), 1e-9, "half the dip, smoothed, half of that learned");
        ControlState persisting = run(dip, binding(0.77, 0), 4);
        double last = run(persisting, binding(0.77, 0), 1).correctionCpus() - persisting.correctionCpus();
        assertTrue(last > 0.09, "idle that persists is learned at nearly the full half: " + last);
    }

    @Test
    void cpusOverTheTargetGiveTheCorrectionBackInTheSamePeriod() {
        ControlState learned = run(ControlState.INITIAL, binding(0.77, 0), 4);
        ControlState over = run(learned, binding(1.0, 0), 1);
        assertEquals(learned.correctionCpus() - 0.5 * 0.03, over.correctionCpus(), 1e-9,
                "the period's own excess, not its smoothed value");
    }
}
