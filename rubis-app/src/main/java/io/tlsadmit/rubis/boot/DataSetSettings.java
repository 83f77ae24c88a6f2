package io.tlsadmit.rubis.boot;

import jakarta.servlet.ServletContext;

/**
 * Start-up settings, each read from a system property first and then from the context parameter of the same name
 * (in context.xml or web.xml).
 */
record DataSetSettings(double scale, long seed, boolean autoload) {

    static final double DEFAULT_SCALE = 0.01;

    static DataSetSettings from(ServletContext context) {
        String scale = value(context, "rubis.scale", String.valueOf(DEFAULT_SCALE));
        String seed = value(context, "rubis.seed", "1");
        try {
            return new DataSetSettings(Double.parseDouble(scale), Long.parseLong(seed),
                    Boolean.parseBoolean(value(context, "rubis.autoload", "true")));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rubis.scale must be a number and rubis.seed a whole number; got scale '"
                    + scale + "', seed '" + seed + "'", e);
        }
    }

    private static String value(ServletContext context, String name, String fallback) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            value = context.getInitParameter(name);
        }
        return value == null || value.isBlank() ? fallback : value.strip();
    }
}
