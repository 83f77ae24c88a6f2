package io.tlsadmit.experiment.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuChangeTableTest {

    @Test
    void eachPhaseIsAveragedAfterItSettlesWithTheBudgetsMedian() {
        List<String> rows = new ArrayList<>();
        for (int s = 0; s < 30; s++) {
            int phase = s / 10;
            // the first seconds of a phase are the server adjusting: far off on purpose, and left out
            double replies = s % 10 < 5 ? 9999 : new double[] {400, 1200, 500}[phase];
            String budget = new String[] {"30.0", "60.0", "35.0"}[phase];
            rows.add("adaptive," + s + "," + (phase == 1 ? 2 : 1) + "," + replies + ",1,0," + budget);
        }
        for (int s = 0; s < 30; s++) {
            rows.add("stock," + s + ",1,20,0,0,");
        }
        assertEquals("""
                | mode | 1 CPU: replies/s (budget/s) | 2 CPUs | 1 CPU again |
                |---|---|---|---|
                | adaptive | 400 (30) | 1200 (60) | 500 (35) |
                | stock | 20 | 20 | 20 |
                """, CpuChangeTable.markdown(rows, 10));
    }

    @Test
    void theQuotaChangesColumnsSayTheQuota() {
        List<String> rows = new ArrayList<>();
        for (int s = 0; s < 30; s++) {
            rows.add("adaptive," + s + "," + (s / 10 == 1 ? "0.5" : "1") + "," + (s / 10 == 1 ? 300 : 600) + ",1,0,");
        }
        assertEquals("""
                | mode | 1 CPU quota: replies/s (budget/s) | 0.5 CPUs quota | 1 CPU quota again |
                |---|---|---|---|
                | adaptive | 600 | 300 | 600 |
                """, CpuChangeTable.markdown(rows, 10, io.tlsadmit.experiment.CpuChangeKind.QUOTA));
    }
}
