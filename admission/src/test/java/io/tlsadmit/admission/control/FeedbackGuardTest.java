package io.tlsadmit.admission.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FeedbackGuardTest {

    private static final double TARGET = 50e6;

    /** The factors of the guard after each of these mean delays, starting open, the CPUs with room to spare. */
    private static double[] factors(double... delays) {
        FeedbackGuard guard = FeedbackGuard.OPEN;
        double[] out = new double[delays.length];
        for (int i = 0; i < delays.length; i++) {
            guard = guard.update(delays[i], TARGET, 1.01, false);
            out[i] = guard.factor();
        }
        return out;
    }

    @Test
    void staysOpenWhileConnectionsDoNotQueue() {
        assertEquals(1.0, factors(1e6)[0]);
        assertEquals(1.0, factors(-1)[0], "no handshake started: no evidence of a queue");
    }

    @Test
    void cutsMultiplicativelyWhileTheDelayIsOverTheTargetAndGrowing() {
        double[] f = factors(60e6, 80e6, 80e6);
        assertEquals(0.7, f[0], 1e-12);
        assertEquals(0.49, f[1], 1e-12);
        assertEquals(0.49 * 0.7, f[2], 1e-12, "a delay that does not fall is still cut");
    }

    @Test
    void holdsWhileAQueueOverTheTargetIsAlreadyDraining() {
        double[] f = factors(200e6, 150e6, 90e6);
        assertEquals(0.7, f[1], 1e-12);
        assertEquals(0.7, f[2], 1e-12);
    }

    @Test
    void recoversAtLeastByASmallStepOnceUnderTheTarget() {
        double[] f = factors(200e6, 10e6, 10e6, 10e6, 10e6);
        assertEquals(0.8, f[1], 1e-12);
        assertEquals(0.9, f[2], 1e-12);
        assertEquals(1.0, f[3], 1e-12);
        assertEquals(1.0, f[4], 1e-12);
    }

    @Test
    void neverClosesCompletely() {
        double[] delays = new double[100];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = 100e6 + 10e6 * i;
        }
        assertEquals(FeedbackGuard.FLOOR, factors(delays)[99], 1e-12);
    }

    @Test
    void remembersWhetherTheLastQueueWasOverTheTarget() {
        assertTrue(FeedbackGuard.OPEN.update(60e6, TARGET, 2, false).queueOver(TARGET));
        assertFalse(FeedbackGuard.OPEN.update(40e6, TARGET, 2, false).queueOver(TARGET));
        assertFalse(FeedbackGuard.OPEN.queueOver(TARGET));
    }
}

class FeedbackGuardRoomTest {

    private static final double TARGET = 50e6;

    private static FeedbackGuard cut(int times) {
        FeedbackGuard guard = FeedbackGuard.OPEN;
        for (int i = 0; i < times; i++) {
            guard = guard.update(100e6 + i, TARGET, 1, false);
        }
        return guard;
    }

    @Test
    void risesInProportionToTheRoomTheCpusHad() {
        FeedbackGuard cut = cut(2); // 0.49
        assertEquals(0.49 * 1.3, cut.update(1e6, TARGET, 1.3, false).factor(), 1e-12);
        assertEquals(0.49 * FeedbackGuard.MAX_RAISE, cut.update(1e6, TARGET, 3, false).factor(), 1e-12, "at most 1.5× a period");
        assertEquals(1.0, cut(1).update(1e6, TARGET, 3, false).factor(), 1e-12, "never above 1");
    }

    @Test
    void holdsWhenTheCpusHadNoRoomEvenWithAnEmptyQueue() {
        FeedbackGuard cut = cut(3);
        assertEquals(cut.factor(), cut.update(0, TARGET, 1, false).factor(), 1e-12);
        assertEquals(cut.factor(), cut.update(0, TARGET, 0.8, false).factor(), 1e-12);
    }

    @Test
    void withoutMeasuredFullHandshakeCpuTheFactorClimbsByTheSmallStep() {
        assertEquals(FeedbackGuard.FLOOR + FeedbackGuard.RECOVERY, guardAtFloor().update(-1, TARGET, Double.NaN, false).factor(), 1e-12);
        assertEquals(0.8, cut(1).update(1e6, TARGET, Double.NaN, false).factor(), 1e-12);
    }

    private static FeedbackGuard guardAtFloor() {
        return cut(40);
    }
}

class FeedbackGuardDrainingTest {

    @Test
    void aQueueThatTheAdmittedWorkCannotRefillIsNotCutForItsOldDelays() {
        FeedbackGuard guard = FeedbackGuard.OPEN.update(300e6, 50e6, 0, false);
        assertEquals(0.7, guard.factor(), 1e-12);
        assertEquals(0.7, guard.update(400e6, 50e6, 0, true).factor(), 1e-12, "rising delays, draining queue: hold");
        assertEquals(0.49, guard.update(400e6, 50e6, 0, false).factor(), 1e-12, "rising delays, refilled queue: cut");
    }
}
