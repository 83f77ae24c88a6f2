package io.tlsadmit.admission;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StaticBudgetTest {

    private final SimulatedClock clock = new SimulatedClock();

    @Test
    void admitsTheBurstThenTheRate() {
        StaticBudget budget = new StaticBudget(5, 2, clock);
        assertTrue(budget.tryAcquireFull());
        assertTrue(budget.tryAcquireFull());
        assertFalse(budget.tryAcquireFull());
        clock.advance(1, SECONDS);
        int admitted = 0;
        while (budget.tryAcquireFull()) {
            admitted++;
        }
        assertEquals(2, admitted, "capped by the burst");
    }

    @Test
    void budgetOfZeroRefusesEveryNewHandshakeAtRuntime() {
        StaticBudget budget = new StaticBudget(100, 100, clock);
        budget.setFullHandshakesPerSecond(0);
        for (int s = 0; s < 10; s++) {
            clock.advance(1, SECONDS);
            assertFalse(budget.tryAcquireFull());
        }
        assertEquals(0.0, budget.fullHandshakesPerSecond());
        assertEquals(0.0, budget.availableTokens());
    }

    @Test
    void learningFromFinishedHandshakesDoesNotChangeAStaticBudget() {
        StaticBudget budget = new StaticBudget(1, 3, clock);
        budget.handshakeCompleted(HandshakeKind.FULL, 0x0304, 5_000_000);
        budget.handshakeCompleted(HandshakeKind.RESUMED, 0x0303, 100_000);
        assertEquals(1.0, budget.fullHandshakesPerSecond());
        assertEquals(3.0, budget.availableTokens());
    }

    @Test
    void invalidRateNamesTheAttribute() {
        StaticBudget budget = new StaticBudget(1, 1, clock);
        for (double bad : new double[] {-0.5, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> budget.setFullHandshakesPerSecond(bad));
            assertTrue(e.getMessage().startsWith("maxFullHandshakesPerSecond "), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new StaticBudget(-1, 1, clock));
        assertTrue(e.getMessage().startsWith("maxFullHandshakesPerSecond "), e.getMessage());
        assertEquals(1.0, budget.fullHandshakesPerSecond(), "a rejected value leaves the budget as it was");
    }

    @Test
    void invalidBurstNamesTheAttribute() {
        StaticBudget budget = new StaticBudget(1, 1, clock);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> budget.setBurst(-1));
        assertTrue(e.getMessage().startsWith("fullHandshakeBurst "), e.getMessage());
        assertEquals(1, budget.burst());
    }
}
