package io.tlsadmit.experiment.step;

import io.tlsadmit.loadtests.RubisSimulation;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * Runs {@link RubisSimulation} once, inside this JVM (pinned to the load generator's CPU):
 * {@code io.gatling.app.Gatling.fromArgs} returns instead of exiting, and the simulation reads its
 * {@code rubis.*} system properties, which are set for the run and restored after it. Gatling's console
 * output goes to the step's log file so the experiment's own progress stays readable.
 */
public final class GatlingStep {

    private GatlingStep() {
    }

    /** Runs the step; its figures land in {@code resultsDir}. */
    public static void run(Path resultsDir, String name, Map<String, String> properties) {
        Properties saved = (Properties) System.getProperties().clone();
        PrintStream console = System.out;
        try {
            Files.createDirectories(resultsDir);
            try (OutputStream log = Files.newOutputStream(resultsDir.resolve("gatling-console.log"));
                    PrintStream quiet = new PrintStream(log, true)) {
                System.setProperty("gatling.data.enableAnalytics", "false");
                // without SNI Gatling's client never offers its cached session: every connection a full handshake
                System.setProperty("gatling.ssl.enableSni", "true");
                properties.forEach(System::setProperty);
                System.setProperty("rubis.runName", name);
                System.setProperty("rubis.resultsDir", resultsDir.toString());
                System.setOut(quiet);
                int exit = io.gatling.app.Gatling$.MODULE$.fromArgs(new String[] {
                    "--simulation", RubisSimulation.class.getName(),
                    "--results-folder", resultsDir.resolve("gatling").toString(),
                    "--run-description", name,
                    "--no-reports"});
                if (exit != 0) {
                    throw new IllegalStateException("Gatling step " + name + " exited with " + exit + "; see "
                            + resultsDir.resolve("gatling-console.log"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            System.setOut(console);
            System.setProperties(saved);
        }
    }

    public static StepFigures figures(Path resultsDir, int fromSecond, int toSecond) {
        try {
            return StepFigures.parse(Files.readString(resultsDir.resolve("summary.json")),
                    Files.readString(resultsDir.resolve("timeline.csv")), fromSecond, toSecond);
        } catch (IOException e) {
            throw new UncheckedIOException("the step wrote no figures in " + resultsDir, e);
        }
    }
}
