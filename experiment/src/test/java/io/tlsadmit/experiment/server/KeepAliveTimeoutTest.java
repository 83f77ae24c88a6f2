package io.tlsadmit.experiment.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class KeepAliveTimeoutTest {

    @Test
    void scalesTheStudys10SecondsWithTheThinkTime() {
        assertEquals(10_000, KeepAliveTimeout.millis(1));
        assertEquals(1_000, KeepAliveTimeout.millis(0.1), "the experiment's default think scale");
        assertEquals(500, KeepAliveTimeout.millis(0.05));
        assertEquals(1, KeepAliveTimeout.millis(1e-9), "never 0: Tomcat would keep connections for ever");
    }

    @Test
    void aScaleThatIsNotPositiveIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> KeepAliveTimeout.millis(0));
        assertThrows(IllegalArgumentException.class, () -> KeepAliveTimeout.millis(Double.NaN));
    }
}
