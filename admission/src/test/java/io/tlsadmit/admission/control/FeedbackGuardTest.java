package io.tlsadmit.admission.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FeedbackGuardTest {

    private static final double TARGET = 50e6;

    @Test
    void staysOpenWhileConnectionsDoNotQueue() {
        FeedbackGuard guard = new FeedbackGuard();
        assertEquals(1.0, guard.update(1e6, TARGET));
        assertEquals(1.0, guard.update(-1, TARGET), "no handshake started: no evidence of a queue");
    }

    @Test
    void cutsMultiplicativelyWhileTheDelayIsOverTheTargetAndGrowing() {
        FeedbackGuard guard = new FeedbackGuard();
        assertEquals(0.7, guard.update(60e6, TARGET), 1e-12);
        assertEquals(0.49, guard.update(80e6, TARGET), 1e-12);
        assertEquals(0.49 * 0.7, guard.update(80e6, TARGET), 1e-12, "a delay that does not fall is still cut");
    }

    @Test
    void holdsWhileAQueueOverTheTargetIsAlreadyDraining() {
        FeedbackGuard guard = new FeedbackGuard();
        guard.update(200e6, TARGET);
        assertEquals(0.7, guard.update(150e6, TARGET), 1e-12);
        assertEquals(0.7, guard.update(90e6, TARGET), 1e-12);
    }

    @Test
    void recoversAdditivelyOnceUnderTheTarget() {
        FeedbackGuard guard = new FeedbackGuard();
        guard.update(200e6, TARGET);
        assertEquals(0.8, guard.update(10e6, TARGET), 1e-12);
        assertEquals(0.9, guard.update(10e6, TARGET), 1e-12);
        assertEquals(1.0, guard.update(10e6, TARGET), 1e-12);
        assertEquals(1.0, guard.update(10e6, TARGET), 1e-12);
    }

    @Test
    void neverClosesCompletely() {
        FeedbackGuard guard = new FeedbackGuard();
        double delay = 100e6;
        for (int i = 0; i < 100; i++) {
            guard.update(delay += 10e6, TARGET);
        }
        assertEquals(FeedbackGuard.FLOOR, guard.factor(), 1e-12);
    }
}
