package io.tlsadmit.loadtests.run;

import io.tlsadmit.loadtests.run.RunRecorder.Series;
import io.tlsadmit.testing.PrometheusScrape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Writes a run's figures where scripts read them: {@code summary.json} (one flat object) and
 * {@code timeline.csv} (one row per second), plus the raw metrics scrapes before and after.
 */
public final class RunReport {

    private final Map<String, Object> figures = new LinkedHashMap<>();

    public static RunReport of(Settings settings, RunRecorder recorder, double loadGeneratorCpuSeconds,
            double serverCpuSeconds, PrometheusScrape before, PrometheusScrape after) {
        RunReport report = new RunReport();
        Map<String, Object> f = report.figures;
        double seconds = recorder.elapsedSeconds();
        f.put("run", settings.runName());
        f.put("mix", settings.mix());
        f.put("model", settings.model().name().toLowerCase(Locale.ROOT));
        f.put("usersPerSec", settings.model() == Settings.ArrivalModel.OPEN ? settings.usersPerSecond() : null);
        f.put("concurrentUsers", settings.model() == Settings.ArrivalModel.CLOSED ? settings.concurrentUsers() : null);
        f.put("durationSec", round(seconds));
        f.put("thinkTimeScale", settings.thinkTimeScale());
        f.put("connectionsPerUser", settings.connectionsPerUser());
        f.put("sourceAddresses", settings.sourceAddresses());
        f.put("sessionsStarted", recorder.total(Series.SESSIONS_STARTED));
        f.put("sessionsCompleted", recorder.total(Series.SESSIONS_COMPLETED));
        f.put("sessionsAbandoned", recorder.total(Series.SESSIONS_ABANDONED));
        f.put("sessionsRefused", recorder.total(Series.SESSIONS_REFUSED));
        f.put("sessionsUnfinished", recorder.total(Series.SESSIONS_STARTED) - recorder.total(Series.SESSIONS_COMPLETED)
                - recorder.total(Series.SESSIONS_ABANDONED) - recorder.total(Series.SESSIONS_REFUSED));
        f.put("knownUsersRefused", recorder.total(Series.KNOWN_USERS_REFUSED));
        f.put("firstPages", recorder.total(Series.FIRST_PAGES));
        f.put("firstPagesIncomplete", recorder.total(Series.FIRST_PAGES_INCOMPLETE));
        f.put("firstPagesTimedOut", recorder.total(Series.FIRST_PAGES_TIMED_OUT));
        f.put("replies", recorder.total(Series.REPLIES));
        f.put("repliesPerSec", round(recorder.total(Series.REPLIES) / seconds));
        f.put("pages", recorder.total(Series.PAGES));
        f.put("pagesPerSec", round(recorder.total(Series.PAGES) / seconds));
        f.put("errorPages", recorder.total(Series.ERROR_PAGES));
        recorder.errorPagesByInteraction().forEach((interaction, count) -> f.put("errorPages." + interaction, count));
        f.put("connectionsRefused", recorder.total(Series.CONNECTIONS_REFUSED));
        f.put("timeouts", recorder.total(Series.TIMEOUTS));
        Histogram pages = recorder.pageTimes();
        Histogram replies = recorder.replyTimes();
        f.put("pageMillisMean", mean(pages));
        f.put("pageMillisP50", percentile(pages, 0.50));
        f.put("pageMillisP95", percentile(pages, 0.95));
        f.put("pageMillisP99", percentile(pages, 0.99));
        f.put("firstPageMillisP99", percentile(recorder.firstPageTimes(), 0.99));
        f.put("laterPageMillisP99", percentile(recorder.laterPageTimes(), 0.99));
        f.put("replyMillisP50", percentile(replies, 0.50));
        f.put("replyMillisP95", percentile(replies, 0.95));
        f.put("replyMillisP99", percentile(replies, 0.99));
        f.put("loadGeneratorCpuSec", round(loadGeneratorCpuSeconds));
        f.put("serverCpuSec", serverCpuSeconds < 0 ? null : round(serverCpuSeconds));
        f.put("serverMetrics", !after.isEmpty());
        if (!after.isEmpty()) {
            f.put("serverFullHandshakes", after.value(ServerMetrics.HANDSHAKES, "kind", "full")
                    - before.value(ServerMetrics.HANDSHAKES, "kind", "full"));
            f.put("serverResumedHandshakes", after.value(ServerMetrics.HANDSHAKES, "kind", "resumed")
                    - before.value(ServerMetrics.HANDSHAKES, "kind", "resumed"));
            f.put("serverConnectionsAdmitted", after.value(ServerMetrics.CONNECTIONS, "decision", "admitted")
                    - before.value(ServerMetrics.CONNECTIONS, "decision", "admitted"));
            f.put("serverConnectionsRefused", after.value(ServerMetrics.CONNECTIONS, "decision", "refused")
                    - before.value(ServerMetrics.CONNECTIONS, "decision", "refused"));
            // tokens the budget gave out: every new connection it admitted, those on a session grace's credit too
            f.put("serverNewConnectionsAdmitted",
                    after.value(ServerMetrics.CONNECTIONS, "decision", "admitted", "verdict", "NEW")
                            - before.value(ServerMetrics.CONNECTIONS, "decision", "admitted", "verdict", "NEW"));
            f.put("serverSessionGrace", after.value(ServerMetrics.SESSION_GRACE)
                    - before.value(ServerMetrics.SESSION_GRACE));
            after.increase(before, ServerMetrics.HANDSHAKES).forEach(f::put);
            after.increase(before, ServerMetrics.CONNECTIONS).forEach(f::put);
        }
        return report;
    }

    public Map<String, Object> figures() {
        return figures;
    }

    public void write(Path dir, RunRecorder recorder, String metricsBefore, String metricsAfter) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("summary.json"), json());
            Files.writeString(dir.resolve("timeline.csv"), timeline(recorder));
            if (!metricsBefore.isEmpty() || !metricsAfter.isEmpty()) {
                Files.writeString(dir.resolve("metrics-before.prom"), metricsBefore);
                Files.writeString(dir.resolve("metrics-after.prom"), metricsAfter);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the run's figures to " + dir, e);
        }
    }

    String json() {
        StringBuilder out = new StringBuilder("{\n");
        figures.forEach((key, value) -> out.append("  \"").append(escape(key)).append("\": ")
                .append(value instanceof String s ? "\"" + escape(s) + "\"" : String.valueOf(value)).append(",\n"));
        if (!figures.isEmpty()) {
            out.setLength(out.length() - 2);
        }
        return out.append("\n}\n").toString();
    }

    static String timeline(RunRecorder recorder) {
        StringBuilder out = new StringBuilder("second");
        for (Series series : Series.values()) {
            out.append(',').append(series.name().toLowerCase(Locale.ROOT));
        }
        out.append('\n');
        for (long second = 0; second < recorder.seconds(); second++) {
            out.append(second);
            for (Series series : Series.values()) {
                out.append(',').append(recorder.at(second, series));
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** The {@code quantile}'s value in milliseconds; -1 without samples (a run that served no page). */
    static long percentile(Histogram millis, double quantile) {
        return millis.getTotalCount() == 0 ? -1 : millis.getValueAtPercentile(100 * quantile);
    }

    static double mean(Histogram millis) {
        return millis.getTotalCount() == 0 ? -1 : round(millis.getMean());
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
