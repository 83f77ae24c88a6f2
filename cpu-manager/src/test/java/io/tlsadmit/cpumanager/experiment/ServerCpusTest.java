package io.tlsadmit.cpumanager.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ServerCpusTest {

    @Test
    void twoCpusSplitByAffinityOneEachAndShareBothOtherwise() {
        assertEquals(new ServerCpus("0", "1", 1), ServerCpus.of(List.of(0, 1), true));
        assertEquals(new ServerCpus("0-1", "0-1", 2), ServerCpus.of(List.of(0, 1), false));
    }

    @Test
    void fourCpusSplitIntoTwoSetsOfTwo() {
        assertEquals(new ServerCpus("0-1", "2-3", 2), ServerCpus.of(List.of(0, 1, 2, 3), true));
    }

    @Test
    void oneCpuIsSplitByQuotaAlone() {
        assertEquals(new ServerCpus("0", "0", 0.5), ServerCpus.of(List.of(0), true));
        assertEquals(new ServerCpus("0", "0", 1), ServerCpus.of(List.of(0), false));
        assertEquals(new ServerCpus("0-2", "0-2", 1.5), ServerCpus.of(List.of(0, 1, 2), true));
    }

    @Test
    void noCpuIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> ServerCpus.of(List.of(), true));
    }
}
