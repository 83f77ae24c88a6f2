package io.tlsadmit.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ControlTraceLoggingTest {

    private static final String TOMCAT = """
            handlers = 1catalina.org.apache.juli.AsyncFileHandler, java.util.logging.ConsoleHandler

            .handlers = 1catalina.org.apache.juli.AsyncFileHandler, java.util.logging.ConsoleHandler
            1catalina.org.apache.juli.AsyncFileHandler.level = ALL
            """;

    @Test
    void theTraceGetsItsOwnHandlerAndLeavesTomcatsLoggingAsItWas() throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(ControlTraceLogging.addTo(TOMCAT)));
        assertEquals("1catalina.org.apache.juli.AsyncFileHandler, java.util.logging.ConsoleHandler,"
                + " 5tlsadmit.org.apache.juli.AsyncFileHandler", p.getProperty("handlers"));
        assertEquals("1catalina.org.apache.juli.AsyncFileHandler, java.util.logging.ConsoleHandler",
                p.getProperty(".handlers"), "the root logger's handlers: unchanged");
        assertEquals("FINE", p.getProperty("io.tlsadmit.admission.control.ControlTrace.level"));
        assertEquals("5tlsadmit.org.apache.juli.AsyncFileHandler",
                p.getProperty("io.tlsadmit.admission.control.ControlTrace.handlers"));
        assertEquals("false", p.getProperty("io.tlsadmit.admission.control.ControlTrace.useParentHandlers"));
        assertEquals("org.apache.juli.VerbatimFormatter",
                p.getProperty("5tlsadmit.org.apache.juli.AsyncFileHandler.formatter"));
        assertTrue(p.getProperty("5tlsadmit.org.apache.juli.AsyncFileHandler.prefix").startsWith("tlsadmit-control"));
    }

    @Test
    void aConfigurationWithoutHandlersIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ControlTraceLogging.addTo(".level = INFO\n"));
    }
}
