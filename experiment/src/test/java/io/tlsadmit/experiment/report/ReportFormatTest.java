package io.tlsadmit.experiment.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.experiment.step.StepResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportFormatTest {

    private static StepResult step(Mode mode, double rate, double throughput, double completed, double p99) {
        return new StepResult(mode, "sweep", rate, Double.NaN, 60, 40, throughput, throughput / 3, completed, 0.5, 0,
                100, 90, 5, 5, 0, 12.5, p99, Double.NaN, Double.NaN, 97.04, 40, 9.5, "browsing", "1.3", 1, 2, 0, 0,
                Double.NaN, Double.NaN);
    }

    @Test
    void csvHasOneRowPerStepWithUnmeasuredFiguresLeftEmpty() {
        String csv = ResultsCsv.format(List.of(step(Mode.STOCK, 20, 1000, 10, 300), step(Mode.ADAPTIVE, 40, 900.5, 9, 80)));
        List<String> lines = csv.lines().toList();
        assertEquals(3, lines.size());
        assertEquals(ResultsCsv.HEADER, lines.get(0));
        assertEquals("stock,sweep,20,,60,40,1000,333.33,10,0.5,0,100,90,5,5,0,12.5,300,,,97.04,40,9.5,"
                + "browsing,1.3,1,,2,0,0,,,,1,,,,,,,", lines.get(1));
        assertEquals(ResultsCsv.HEADER.split(",").length, lines.get(2).split(",", -1).length);
    }

    @Test
    void csvKeepsTheColumnsOutsideChecksReadAndAddsTheWorkloadAndTheResumedShare() {
        List<String> header = List.of(ResultsCsv.HEADER.split(","));
        assertTrue(header.containsAll(List.of("mode", "phase", "users_per_sec", "throughput_replies_per_s",
                "completed_sessions_per_s", "refused_connections_per_s", "server_full_handshakes",
                "server_resumed_handshakes", "server_cpu_pct", "page_p99_ms", "mix", "tls", "resumed_share",
                "timeouts_per_s", "wasted_token_share")), ResultsCsv.HEADER);
        assertEquals(List.of("server_cpus", "first_page_p99_ms", "later_page_p99_ms", "server_cpus_idle_pct",
                "server_cpus_interrupt_pct", "server_cpus_steal_pct", "server_full_hs_cpu_ms", "driver_cpus_busy_pct"),
                header.subList(header.size() - 8, header.size()), "each added after the columns before it");
        StepResult gated = new StepResult(Mode.ADAPTIVE, "sweep", 80, Double.NaN, 60, 40, 1000, 300, 10, 5, 0.25,
                100, 90, 5, 5, 0, 12.5, 40, 300, 100, 97, 40, 9.5, "bidding", "1.2", 6, 9, 0.5, 0.5, 1200, 400);
        assertEquals(0.25, gated.resumedShare(), 1e-9, "server truth: resumed / (full + resumed)");
        assertEquals(0.1, gated.wastedTokenShare(), 1e-9, "(incomplete + timed out) / users let in");
        String row = ResultsCsv.format(List.of(gated)).lines().toList().get(1);
        assertTrue(row.endsWith(",bidding,1.2,6,0.25,9,0.5,0.5,1200,400,0.1,1,,,,,,,"), row);
        StepResult stock = new StepResult(Mode.STOCK, "sweep", 80, Double.NaN, 60, 40, 1000, 300, 10, 5, 0.25,
                100, 90, 5, 5, 0, 12.5, 40, Double.NaN, Double.NaN, 97, 40, 9.5, "browsing", "1.3", 1, 9, 0, 1,
                Double.NaN, Double.NaN);
        assertTrue(Double.isNaN(stock.resumedShare()), "stock Tomcat does not count its handshakes");
        assertTrue(Double.isNaN(stock.wastedTokenShare()), "no gate, no tokens");
    }

    @Test
    void aWrittenCsvReadsBackForResumingARun() {
        List<StepResult> steps = List.of(step(Mode.STOCK, 20, 1000, 10, 300), step(Mode.HAPROXY, 40, 900.25, 9, 80),
                step(Mode.HAPROXY_REJECT, 40, 900, 9, 80));
        String csv = ResultsCsv.format(steps);
        List<StepResult> read = ResultsCsv.parse(csv);
        assertEquals(csv, ResultsCsv.format(read));
        assertEquals(Mode.HAPROXY, read.get(1).mode());
        assertTrue(csv.contains("\nhaproxy-reject,"), "mode names in steps.csv start with haproxy: " + csv);
        assertEquals(Mode.HAPROXY_REJECT, read.get(2).mode());
        assertTrue(Double.isNaN(read.get(0).limit()));
        assertThrows(IllegalArgumentException.class, () -> ResultsCsv.parse("mode,users\nstock,1\n"));
    }

    @Test
    void numbersKeepTwoDecimalsAtMostWithoutTrailingZeros() {
        assertEquals("3", ResultsCsv.number(3.0));
        assertEquals("3.1", ResultsCsv.number(3.1));
        assertEquals("3.14", ResultsCsv.number(3.14159));
        assertEquals("0", ResultsCsv.number(-0.001));
        assertEquals("", ResultsCsv.number(Double.NaN));
    }

    @Test
    void summaryGivesEachModesOverloadFiguresAsFractionsOfItsOwnPeak() {
        double knee = 10;
        List<StepResult> sweep = List.of(
                step(Mode.STOCK, 10, 1000, 20, 100), step(Mode.STOCK, 20, 500, 5, 9000),
                step(Mode.STOCK, 40, 250, 2, 10000), step(Mode.STOCK, 80, 200, 1, 10000),
                step(Mode.ADAPTIVE, 10, 900, 18, 50), step(Mode.ADAPTIVE, 20, 950, 19, 60),
                step(Mode.ADAPTIVE, 40, 930, 18, 70));
        String table = SummaryTable.markdown(sweep, knee);
        List<String> rows = table.lines().toList();
        assertEquals(4, rows.size());
        assertEquals("| stock | 1000 | 10 | 20.00 | 0.50 | 0.25 | 9000 | 0.25 | 0.10 | 10000 | 0.20 | 0.05 | 10000 |",
                rows.get(2));
        // adaptive never ran 8x: the cells say so instead of inventing a figure
        assertEquals("| adaptive | 950 | 20 | 19.00 | 1.00 | 1.00 | 60 | 0.98 | 0.95 | 70 | – | – | – |", rows.get(3));
        assertTrue(rows.get(0).startsWith("| mode | peak throughput"));
        assertEquals(rows.get(0).split("\\|").length, rows.get(1).split("\\|").length);
    }

    @Test
    void aStepIsFoundAtAComputedRateDespiteRounding() {
        List<StepResult> steps = List.of(step(Mode.STOCK, 33.3, 1, 1, 1));
        assertTrue(SummaryTable.at(steps, 3 * 11.1111).isPresent());
        assertTrue(SummaryTable.at(steps, 40).isEmpty());
    }

    @Test
    void aStepOnTwoServerCpusSaysSoWithItsPageSplitAndOlderCsvsStillRead() {
        StepResult two = new StepResult(Mode.STOCK, "sweep", 80, Double.NaN, 60, 40, 1000, 300, 10, 5, 0.25,
                100, 90, 5, 5, 0, 12.5, 40, Double.NaN, Double.NaN, 97, 40, 9.5, "browsing", "1.3", 1, 9, 0, 1,
                Double.NaN, Double.NaN, 2, 900, 310, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        String csv = ResultsCsv.format(List.of(two));
        assertTrue(csv.lines().toList().get(1).endsWith(",2,900,310,,,,,"), csv);
        StepResult read = ResultsCsv.parse(csv).get(0);
        assertEquals(2, read.workload().serverCpus());
        assertEquals("-2cpus", read.workload().chartSuffix());
        assertEquals(900, read.firstPageP99Millis());
        assertEquals(310, read.laterPageP99Millis());
        String noCpuSplit = withoutLastColumns(csv, 5);
        assertEquals(310, ResultsCsv.parse(noCpuSplit).get(0).laterPageP99Millis());
        assertTrue(Double.isNaN(ResultsCsv.parse(noCpuSplit).get(0).serverCpusIdlePercent()));
        String noSplit = withoutLastColumns(csv, 7);
        assertEquals(2, ResultsCsv.parse(noSplit).get(0).serverCpus());
        assertTrue(Double.isNaN(ResultsCsv.parse(noSplit).get(0).laterPageP99Millis()));
        String older = withoutLastColumns(csv, 8);
        assertEquals(1, ResultsCsv.parse(older).get(0).serverCpus());
    }

    private static String withoutLastColumns(String csv, int n) {
        return csv.lines().map(line -> {
            String cut = line;
            for (int i = 0; i < n; i++) {
                cut = cut.substring(0, cut.lastIndexOf(','));
            }
            return cut;
        }).reduce("", (a, b) -> a + b + "\n");
    }

    @Test
    void whatElseTheServerCpusDidIsWrittenAndReadBack() {
        StepResult step = new StepResult(Mode.ADAPTIVE, "sweep", 520, Double.NaN, 60, 40, 1800, 700, 50, 1300, 0,
                100, 90, 5, 5, 0, 12.5, 40, 4000, 20000, 91.5, 88, 2.5, "browsing", "1.3", 1, 9, 0, 1,
                5000, 0, 1, 60, 110, 0.4, 7.25, 0.1, Double.NaN, Double.NaN);
        String csv = ResultsCsv.format(List.of(step));
        assertTrue(csv.lines().toList().get(1).endsWith(",60,110,0.4,7.25,0.1,,"), csv);
        StepResult read = ResultsCsv.parse(csv).get(0);
        assertEquals(0.4, read.serverCpusIdlePercent());
        assertEquals(7.25, read.serverCpusInterruptPercent());
        assertEquals(0.1, read.serverCpusStealPercent());
    }

    @Test
    void theGatesCpuPerFullHandshakeIsWrittenAndAnOlderFileReadsWithoutIt() {
        StepResult adaptive = new StepResult(Mode.ADAPTIVE, "sweep", 520, Double.NaN, 60, 40, 1800, 700, 50, 1300, 0,
                100, 90, 5, 5, 0, 12.5, 40, 4000, 20000, 91.5, 88, 2.5, "browsing", "1.3", 1, 9, 0, 1,
                5000, 0, 1, 60, 110, 0.4, 7.25, 0.1, 7.4567, 81.5);
        StepResult stat = new StepResult(Mode.STATIC, "sweep", 520, 300, 60, 40, 1800, 700, 50, 1300, 0,
                100, 90, 5, 5, 0, 12.5, 40, 4000, 20000, 91.5, 88, 2.5, "browsing", "1.3", 1, 9, 0, 1,
                5000, 0, 1, 60, 110, 0.4, 7.25, 0.1, Double.NaN, 80);
        String csv = ResultsCsv.format(List.of(adaptive, stat));
        List<String> lines = csv.lines().toList();
        assertTrue(lines.get(0).endsWith(",server_cpus_steal_pct,server_full_hs_cpu_ms,driver_cpus_busy_pct"),
                lines.get(0));
        assertTrue(lines.get(1).endsWith(",0.4,7.25,0.1,7.46,81.5"), lines.get(1));
        assertTrue(lines.get(2).endsWith(",0.4,7.25,0.1,,80"), "the static budget times no handshake: " + lines.get(2));
        List<StepResult> read = ResultsCsv.parse(csv);
        assertEquals(7.46, read.get(0).serverFullHandshakeCpuMillis());
        assertTrue(Double.isNaN(read.get(1).serverFullHandshakeCpuMillis()));
        assertEquals(81.5, read.get(0).driverCpusBusyPercent());
        assertEquals(csv, ResultsCsv.format(read));
        String withoutDriverCpus = withoutLastColumns(csv, 1);
        assertEquals(ResultsCsv.HEADER_NO_DRIVER_CPUS, withoutDriverCpus.lines().toList().get(0));
        StepResult readWithout = ResultsCsv.parse(withoutDriverCpus).get(0);
        assertTrue(Double.isNaN(readWithout.driverCpusBusyPercent()), "not measured then");
        assertEquals(7.46, readWithout.serverFullHandshakeCpuMillis(), "the columns before it read as before");
        String older = withoutLastColumns(csv, 2);
        assertEquals(ResultsCsv.HEADER_NO_HS_CPU, older.lines().toList().get(0));
        StepResult readOlder = ResultsCsv.parse(older).get(0);
        assertTrue(Double.isNaN(readOlder.serverFullHandshakeCpuMillis()), "not measured then");
        assertEquals(0.1, readOlder.serverCpusStealPercent(), "the columns before it read as before");
    }
}
