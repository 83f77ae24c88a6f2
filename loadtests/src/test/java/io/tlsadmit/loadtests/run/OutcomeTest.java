package io.tlsadmit.loadtests.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OutcomeTest {

    @Test
    void anyStatusIsAReplyHoweverLate() {
        assertEquals(Outcome.REPLY, Outcome.classify(true, 9_999, 10_000));
        assertEquals(Outcome.REPLY, Outcome.classify(true, 3, 10_000));
    }

    @Test
    void noReplyBeforeTheTimeoutIsARefusedConnection() {
        assertEquals(Outcome.REFUSED, Outcome.classify(false, 2, 10_000));
        assertEquals(Outcome.REFUSED, Outcome.classify(false, 8_999, 10_000));
    }

    @Test
    void noReplyAtTheTimeoutIsAUserGivingUp() {
        assertEquals(Outcome.TIMEOUT, Outcome.classify(false, 9_000, 10_000));
        assertEquals(Outcome.TIMEOUT, Outcome.classify(false, 10_004, 10_000));
    }
}
