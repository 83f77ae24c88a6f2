package io.tlsadmit.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tomcat's JULI configuration with the tlsadmit adaptive controller's trace switched on (logger
 * {@code io.tlsadmit.admission.control.ControlTrace} at {@code FINE}, valve README "Tracing the controller"), into a file
 * of its own, {@code logs/tlsadmit-control.<date>.log}, one bare line per control period.
 */
public final class ControlTraceLogging {

    /** The trace files' name prefix in {@code CATALINA_BASE/logs}. */
    public static final String FILE_PREFIX = "tlsadmit-control.";
    static final String HANDLER = "5tlsadmit.org.apache.juli.AsyncFileHandler";
    private static final String LOGGER = "io.tlsadmit.admission.control.ControlTrace";
    private static final String SETTINGS = String.join("\n",
            "",
            "# tlsadmit: the adaptive controller's trace",
            HANDLER + ".level = FINE",
            HANDLER + ".directory = ${catalina.base}/logs",
            HANDLER + ".prefix = " + FILE_PREFIX,
            HANDLER + ".formatter = org.apache.juli.VerbatimFormatter",
            HANDLER + ".encoding = UTF-8",
            LOGGER + ".level = FINE",
            LOGGER + ".handlers = " + HANDLER,
            LOGGER + ".useParentHandlers = false",
            "");

    private ControlTraceLogging() {
    }

    /** {@code logging} (a {@code conf/logging.properties}) with the trace's handler added and its logger set. */
    public static String addTo(String logging) {
        Matcher handlers = Pattern.compile("(?m)^handlers\\s*=.*$").matcher(logging);
        if (!handlers.find()) {
            throw new IllegalArgumentException("no 'handlers =' line to add the control trace's handler to");
        }
        return logging.substring(0, handlers.end()) + ", " + HANDLER + logging.substring(handlers.end()) + SETTINGS;
    }
}
