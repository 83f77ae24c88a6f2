package io.tlsadmit.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NewSessionAdmissionTest {

    @Test
    void retryAfterIsWhenTheNextTokenIsDueWithinOneToSixtySeconds() {
        assertEquals(1, NewSessionAdmission.retryAfterSeconds(0.5, 100));
        assertEquals(4, NewSessionAdmission.retryAfterSeconds(0, 0.25));
        assertEquals(2, NewSessionAdmission.retryAfterSeconds(0.5, 0.25));
        assertEquals(60, NewSessionAdmission.retryAfterSeconds(0, 0.001));
        assertEquals(60, NewSessionAdmission.retryAfterSeconds(0, 0), "a closed budget: come back much later");
    }

    @Test
    void policyIsOnOrOff() {
        assertTrue(NewSessionAdmission.parse(" ON "));
        assertTrue(NewSessionAdmission.parse("true"));
        assertFalse(NewSessionAdmission.parse("off"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NewSessionAdmission.parse("maybe"));
        assertTrue(e.getMessage().startsWith("newSessionPolicy "), e.getMessage());
    }

    @Test
    void statusIs429Or503() {
        assertEquals(429, NewSessionAdmission.parseStatus("429"));
        assertEquals(503, NewSessionAdmission.parseStatus(" 503 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NewSessionAdmission.parseStatus("500"));
        assertTrue(e.getMessage().startsWith("newSessionStatus "), e.getMessage());
    }
}
