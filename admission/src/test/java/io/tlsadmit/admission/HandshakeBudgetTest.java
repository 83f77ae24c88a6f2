package io.tlsadmit.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.control.AdmissionController;
import org.junit.jupiter.api.Test;

/** What a server adapter may ask of any budget without knowing which one it holds. */
class HandshakeBudgetTest {

    private final SimulatedClock clock = new SimulatedClock();

    @Test
    void aStaticBudgetsCapAndBurstAreItsRateAndBucket() {
        HandshakeBudget budget = new StaticBudget(10, 4, clock);
        budget.setMaxFullHandshakesPerSecond(2.5);
        budget.setFullHandshakeBurst(3);
        assertEquals(2.5, budget.getMaxFullHandshakesPerSecond());
        assertEquals(2.5, budget.fullHandshakesPerSecond());
        assertEquals(3, budget.getFullHandshakeBurst());
        assertEquals(3, budget.bucket().burst());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> budget.setMaxFullHandshakesPerSecond(-1));
        assertTrue(e.getMessage().startsWith("maxFullHandshakesPerSecond "), e.getMessage());
        assertTrue(budget.view(AdmissionController.class).isEmpty());
        assertSame(budget, budget.view(StaticBudget.class).orElseThrow());
    }

    @Test
    void anAdaptiveBudgetsCapIsItsCeilingAndItIsItsOwnControllerView() {
        AdmissionController controller = new AdmissionController();
        HandshakeBudget budget = controller;
        budget.setMaxFullHandshakesPerSecond(40);
        budget.setFullHandshakeBurst(7);
        assertEquals(40, controller.getMaxFullHandshakesPerSecond());
        assertEquals(7, controller.getFullHandshakeBurst());
        assertSame(controller.bucket(), budget.bucket());
        assertSame(controller, budget.view(AdmissionController.class).orElseThrow());
    }

    @Test
    void aBudgetWithoutSettingsSaysSoInsteadOfGuessing() {
        HandshakeBudget fixed = new HandshakeBudget() {
            @Override
            public boolean tryAcquireFull() {
                return true;
            }

            @Override
            public boolean tryAcquireFullOnCredit(long maxDebt) {
                return true;
            }

            @Override
            public double fullHandshakesPerSecond() {
                return 5;
            }

            @Override
            public double availableTokens() {
                return 1;
            }
        };
        assertEquals(5, fixed.getMaxFullHandshakesPerSecond());
        assertEquals(-1, fixed.getFullHandshakeBurst());
        assertNull(fixed.bucket());
        assertThrows(UnsupportedOperationException.class, () -> fixed.setMaxFullHandshakesPerSecond(1));
        assertThrows(UnsupportedOperationException.class, () -> fixed.setFullHandshakeBurst(1));
        fixed.recordArrival(HandshakeKind.FULL); // demand is ignored, not an error
        fixed.recordQueueDelay(1_000);
    }
}
