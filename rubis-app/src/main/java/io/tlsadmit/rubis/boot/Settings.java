package io.tlsadmit.rubis.boot;

import jakarta.servlet.ServletContext;

/**
 * Start-up settings, each read from a system property first and then from the context parameter of the same name
 * (in context.xml or web.xml).
 */
record Settings(double scale, long seed, boolean autoload) {

    static final double DEFAULT_SCALE = 0.01;

    static Settings from(ServletContext context) {
        return new Settings(
                Double.parseDouble(value(context, "rubis.scale", String.valueOf(DEFAULT_SCALE))),
                Long.parseLong(value(context, "rubis.seed", "1")),
                Boolean.parseBoolean(value(context, "rubis.autoload", "true")));
    }

    private static String value(ServletContext context, String name, String fallback) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            value = context.getInitParameter(name);
        }
        return value == null || value.isBlank() ? fallback : value.strip();
    }
}
