package io.tlsadmit.admission.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link SessionCost}: the all-in CPU of one new client, from periods of steady binding only. */
class SessionCostTest {

    private static final double PERIOD = 0.25;
    private static final double HANDSHAKE = 6e6;

    private static SessionCost run(SessionCost cost, double seconds, boolean binding, double used, double admitted) {
        for (int i = 0; i < Math.round(seconds / PERIOD); i++) {
            cost = cost.update(PERIOD, binding, used, admitted, HANDSHAKE);
        }
        return cost;
    }

    @Test
    void unknownUntilTheBudgetHasBoundAtASteadyRateForFiveSeconds() {
        SessionCost cost = run(SessionCost.NONE, 4.5, true, 0.97, 70);
        assertTrue(Double.isNaN(cost.cpuSecondsPerClient(HANDSHAKE)), "after 4.5 s: " + cost);
        cost = run(cost, 3, true, 0.97, 70);
        assertEquals(0.97 / 70, cost.cpuSecondsPerClient(HANDSHAKE), 1e-9);
    }

    @Test
    void periodsBelowTheBudgetTeachNothing() {
        // Established clients' CPU beside a few new clients would read as a huge cost per new client.
        SessionCost cost = run(SessionCost.NONE, 30, false, 0.5, 5);
        assertTrue(Double.isNaN(cost.cpuSecondsPerClient(HANDSHAKE)));
        cost = run(cost, 10, true, 0.96, 80);
        cost = run(cost, 10, false, 0.5, 5);
        assertEquals(0.96 / 80, cost.cpuSecondsPerClient(HANDSHAKE), 1e-9, "kept while nobody is refused");
    }

    @Test
    void whileTheAdmittedRateMovesNothingIsLearned() {
        SessionCost cost = run(SessionCost.NONE, 10, true, 0.97, 70);
        // The rate doubles: admissions at once, the sessions' CPU over seconds. Those seconds would read as
        // half the cost; they are skipped until admissions are steady again.
        SessionCost during = run(cost, 1, true, 1.0, 140);
        assertEquals(0.97 / 70, during.cpuSecondsPerClient(HANDSHAKE), 1e-9);
    }

    @Test
    void followsAChangedCostWithinTwiceItsWindow() {
        SessionCost cost = run(SessionCost.NONE, 20, true, 0.97, 70);
        cost = run(cost, 30, true, 0.97, 65);
        assertEquals(0.97 / 65, cost.cpuSecondsPerClient(HANDSHAKE), 0.02 * 0.97 / 65);
    }

    @Test
    void forgottenAfterAMinuteWithoutBinding() {
        SessionCost cost = run(SessionCost.NONE, 20, true, 0.97, 70);
        cost = run(cost, 45, false, 0.2, 10);
        assertTrue(Double.isNaN(cost.cpuSecondsPerClient(HANDSHAKE)), "the mix of clients may have changed: " + cost);
    }

    @Test
    void followsTheMachinesSpeedAsTheFullHandshakeShowsIt() {
        // Learned in a slow spell: every piece of work, the handshake too, at 1.5× its CPU.
        SessionCost cost = SessionCost.NONE;
        for (int i = 0; i < 80; i++) {
            cost = cost.update(PERIOD, true, 0.97, 50, 1.5 * HANDSHAKE);
        }
        assertEquals(0.97 / 50, cost.cpuSecondsPerClient(1.5 * HANDSHAKE), 1e-9);
        assertEquals(0.97 / 50 / 1.5, cost.cpuSecondsPerClient(HANDSHAKE), 1e-9, "the spell over, at once");
        assertTrue(Double.isNaN(cost.cpuSecondsPerClient(0)), "no handshake cost, no scale");
    }
}
