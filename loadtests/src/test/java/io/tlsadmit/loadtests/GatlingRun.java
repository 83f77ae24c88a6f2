package io.tlsadmit.loadtests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@link RubisSimulation} inside the test's JVM, the way {@code gatling-maven-plugin} would in its own:
 * {@code io.gatling.app.Gatling.fromArgs} returns the exit code instead of calling {@code System.exit}. The
 * simulation reads {@code rubis.*} system properties, so they are set for the run and restored after it.
 */
final class GatlingRun {

    private static final Pattern FIGURE = Pattern.compile(
            "\"((?:[^\"\\\\]|\\\\.)+)\": (\"(?:[^\"\\\\]|\\\\.)*\"|[^,\\n]+)");

    private GatlingRun() {
    }

    /** The figures of {@code summary.json}, keyed by name, values as written. */
    static Map<String, String> run(Path resultsRoot, String name, Map<String, String> properties) {
        Path resultsDir = resultsRoot.resolve(name);
        Properties saved = (Properties) System.getProperties().clone();
        try {
            // Gatling's own settings: no call home, SNI on (without it every connection is a full handshake)
            System.setProperty("gatling.data.enableAnalytics", "false");
            System.setProperty("gatling.ssl.enableSni", "true");
            properties.forEach(System::setProperty);
            System.setProperty("rubis.runName", name);
            System.setProperty("rubis.resultsDir", resultsDir.toString());
            int exit = io.gatling.app.Gatling$.MODULE$.fromArgs(new String[] {
                "--simulation", RubisSimulation.class.getName(),
                "--results-folder", resultsRoot.resolve("gatling").toString(),
                "--run-description", name,
                "--no-reports"});
            if (exit != 0) {
                throw new AssertionError("Gatling run " + name + " exited with " + exit);
            }
        } finally {
            System.setProperties(saved);
        }
        return summary(resultsDir.resolve("summary.json"));
    }

    static Map<String, String> summary(Path json) {
        try {
            Map<String, String> figures = new LinkedHashMap<>();
            Matcher figure = FIGURE.matcher(Files.readString(json));
            while (figure.find()) {
                String value = figure.group(2);
                figures.put(unescape(figure.group(1)),
                        value.startsWith("\"") ? unescape(value.substring(1, value.length() - 1)) : value);
            }
            return figures;
        } catch (IOException e) {
            throw new UncheckedIOException("the run wrote no figures at " + json, e);
        }
    }

    private static String unescape(String json) {
        return json.replace("\\\"", "\"").replace("\\\\", "\\");
    }

    static long number(Map<String, String> figures, String name) {
        String value = figures.get(name);
        if (value == null || value.equals("null")) {
            throw new AssertionError("no figure " + name + " in " + figures);
        }
        return Math.round(Double.parseDouble(value));
    }
}
