package io.tlsadmit.admission.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link SessionCost}: the all-in CPU of one new client, from periods of steady binding only. */
class SessionCostTest {

    private static final double PERIOD = 0.25;

    private static SessionCost run(SessionCost cost, double seconds, boolean binding, double used, double admitted) {
        for (int i = 0; i < Math.round(seconds / PERIOD); i++) {
            cost = cost.update(PERIOD, binding, used, admitted);
        }
        return cost;
    }

    @Test
    void unknownUntilTheBudgetHasBoundAtASteadyRateForFiveSeconds() {
        SessionCost cost = run(SessionCost.NONE, 4.5, true, 0.97, 70);
        assertTrue(Double.isNaN(cost.cpuSecondsPerClient()), "after 4.5 s: " + cost);
        cost = run(cost, 3, true, 0.97, 70);
        assertEquals(0.97 / 70, cost.cpuSecondsPerClient(), 1e-9);
    }

    @Test
    void periodsBelowTheBudgetTeachNothing() {
        // Established clients' CPU beside a few new clients would read as a huge cost per new client.
        SessionCost cost = run(SessionCost.NONE, 30, false, 0.5, 5);
        assertTrue(Double.isNaN(cost.cpuSecondsPerClient()));
        cost = run(cost, 10, true, 0.96, 80);
        cost = run(cost, 10, false, 0.5, 5);
        assertEquals(0.96 / 80, cost.cpuSecondsPerClient(), 1e-9, "kept while nobody is refused");
    }

    @Test
    void whileTheAdmittedRateMovesNothingIsLearned() {
        SessionCost cost = run(SessionCost.NONE, 10, true, 0.97, 70);
        // The rate doubles: admissions at once, the sessions' CPU over seconds. Those seconds would read as
        // half the cost; they are skipped until admissions are steady again.
        SessionCost during = run(cost, 1, true, 1.0, 140);
        assertEquals(0.97 / 70, during.cpuSecondsPerClient(), 1e-9);
    }

    @Test
    void followsAChangedCostWithinTwiceItsWindow() {
        SessionCost cost = run(SessionCost.NONE, 20, true, 0.97, 70);
        cost = run(cost, 30, true, 0.97, 65);
        assertEquals(0.97 / 65, cost.cpuSecondsPerClient(), 0.02 * 0.97 / 65);
    }

    @Test
    void forgottenAfterAMinuteWithoutBinding() {
        SessionCost cost = run(SessionCost.NONE, 20, true, 0.97, 70);
        cost = run(cost, 45, false, 0.2, 10);
        assertTrue(Double.isNaN(cost.cpuSecondsPerClient()), "the mix of clients may have changed: " + cost);
    }
}
