package io.tlsadmit.peek;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.classifier.ServerPolicy;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The fallback path: a JVM started with {@code -Dtlsadmit.peek.disable=true} (a surefire execution of its own). */
@EnabledIfSystemProperty(named = "tlsadmit.peek.disable", matches = "true")
class NativePeekUnavailableTest {

    @Test
    void aDisabledLibraryIsUnavailableWithTheReason() {
        assertFalse(NativePeek.isAvailable());
        assertEquals("disabled by -Dtlsadmit.peek.disable=true", NativePeek.unavailableReason());
    }

    @Test
    void callsWhileUnavailableFailWithTheReasonInsteadOfALinkError() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> NativePeek.classify(ByteBuffer.allocateDirect(8), ServerPolicy.DEFAULT));
        assertTrue(e.getMessage().contains("tlsadmit.peek.disable"), e.getMessage());
        assertThrows(IllegalStateException.class, NativePeek::allowedCpus);
        assertThrows(IllegalStateException.class, NativePeek::allowedCpuList);
        assertThrows(IllegalStateException.class, () -> NativePeek.threadCpuNanos(1));
    }
}
