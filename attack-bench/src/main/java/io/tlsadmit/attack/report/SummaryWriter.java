package io.tlsadmit.attack.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code summary.md}: the run's description, then per scenario one table of figures beside their targets. */
public final class SummaryWriter {
    private SummaryWriter() {
    }

    public static String markdown(RunDescription run, List<ScenarioReport> reports) {
        StringBuilder md = new StringBuilder("# Attack benchmark\n\n");
        md.append("| | |\n|---|---|\n");
        md.append("| date (UTC) | ").append(run.date()).append(" |\n");
        md.append("| machine | ").append(run.cpus()).append(" CPUs, ").append(run.cpuModel())
                .append("; Tomcat pinned to CPU 0, driver to CPU 1 |\n");
        md.append("| JDK (driver) | ").append(run.jdk()).append(" |\n");
        md.append("| Tomcat | ").append(run.tomcat()).append(", on JDK ").append(run.tomcatJdk()).append(" |\n");
        md.append("| gate jar | `").append(run.gateJar()).append("` (").append(run.gateBuild()).append(") |\n");
        md.append("| command | `").append(run.command()).append("` |\n\n");
        for (ScenarioReport report : reports) {
            md.append("## ").append(report.scenario()).append("\n\n");
            md.append("Connector: `").append(report.settings()).append("`\n\n");
            md.append("| phase | figure | measured | target | met |\n|---|---|---:|---|---|\n");
            for (ScenarioReport.Figure f : report.figures()) {
                md.append("| ").append(f.phase()).append(" | ").append(f.metric()).append(" | ").append(f.shown())
                        .append(" | ").append(f.target()).append(" | ")
                        .append(f.met() == null ? "" : f.met() ? "yes" : "**no**").append(" |\n");
            }
            if (!report.counterDeltas().isEmpty()) {
                md.append("\nGate counters, increase per phase:\n\n");
                for (Map.Entry<String, Map<String, Double>> phase : report.counterDeltas().entrySet()) {
                    md.append("- ").append(phase.getKey()).append(": ");
                    if (phase.getValue().isEmpty()) {
                        md.append("none");
                    }
                    StringBuilder line = new StringBuilder();
                    phase.getValue().forEach((series, delta) -> line.append(line.length() == 0 ? "" : ", ")
                            .append('`').append(series).append("` +").append(String.format(Locale.ROOT, "%.0f", delta)));
                    md.append(line).append('\n');
                }
            }
            if (!report.notes().isEmpty()) {
                md.append('\n');
                report.notes().forEach(n -> md.append("- ").append(n).append('\n'));
            }
            md.append('\n');
        }
        return md.toString();
    }

    public static void write(Path dir, RunDescription run, List<ScenarioReport> reports) throws IOException {
        Files.writeString(dir.resolve("summary.md"), markdown(run, reports));
        StringBuilder csv = new StringBuilder("scenario,phase,metric,value\n");
        for (ScenarioReport report : reports) {
            for (ScenarioReport.Figure f : report.figures()) {
                csv.append(report.scenario()).append(',').append(f.phase()).append(',').append(quoted(f.metric()))
                        .append(',').append(Double.isNaN(f.value()) ? "" : String.format(Locale.ROOT, "%.6g", f.value())).append('\n');
            }
            for (Map.Entry<String, Map<String, Double>> phase : report.counterDeltas().entrySet()) {
                phase.getValue().forEach((series, delta) -> csv.append(report.scenario()).append(',').append(phase.getKey())
                        .append(',').append(quoted("counter " + series)).append(',')
                        .append(String.format(Locale.ROOT, "%.0f", delta)).append('\n'));
            }
        }
        Files.writeString(dir.resolve("results.csv"), csv.toString());
    }

    private static String quoted(String field) {
        return field.contains(",") || field.contains("\"") ? '"' + field.replace("\"", "\"\"") + '"' : field;
    }
}
