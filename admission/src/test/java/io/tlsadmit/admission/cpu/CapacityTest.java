package io.tlsadmit.admission.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The CPUs the manager hands out, on simulated periods of a 2-CPU host with a floor of 0.1 for each of 2 servers. */
class CapacityTest {

    private static final double FLOORS = 0.2;
    private static final double NaN = Double.NaN;

    @ParameterizedTest(name = "host busy {0}, servers {1} -> others {2}")
    @CsvSource({
            "1.96, 0.90, 1.06",  // the night run's phase 5: the load generators and MariaDB took about one CPU
            "0.40, 0.40, 0",     // nothing else on the host
            "0.50, 0.80, 0",     // servers also ran on CPUs outside `cpus`: never below 0
    })
    void othersAreTheBusyCpusLessTheServers(double busy, double servers, double others) {
        assertEquals(others, Capacity.others(busy, servers), 1e-9);
    }

    @Test
    void othersAreUnknownWithoutBothMeasurements() {
        assertEquals(NaN, Capacity.others(NaN, 0.5));
        assertEquals(NaN, Capacity.others(1.0, NaN));
    }

    @ParameterizedTest(name = "others {0} -> available {1}")
    @CsvSource(delimiter = '|', value = {
            "''                    | 2",     // nothing measured yet: all of them, as before
            "NaN                   | 2",     // the first period has no earlier reading
            "0 ; 0 ; 0             | 2",     // a dedicated host
            "1.06                  | 0.94",  // the night run: a gate is told the CPUs it will get
            "0.9 ; 1.1 ; 1.0       | 0.9",   // noise: the largest of the window
            "1.9 ; 1.95 ; 2        | 0.2",   // a host taken by others: never below the floors
            "1.5 ; 0 ; 0 ; 0       | 2",     // a burst older than the window is forgotten
            "0 ; 1.5 ; 0 ; 0       | 0.5",   // within the window it is planned for
    })
    void availableIsTheCpusLessTheLargestRecentOthers(String others, double available) {
        assertEquals(available, Capacity.available(2, FLOORS, list(others)), 1e-9);
    }

    /** A neighbour busy for one period, then quiet: the CPUs it took stay out of the plan for the window, then return. */
    @Test
    void aBurstIsHeldForTheWindowThenReleased() {
        double[] othersPerPeriod = {0.2, 0.2, 1.2, 0.2, 0.2, 0.2, 0.2};
        double[] expected = {1.8, 1.8, 0.8, 0.8, 0.8, 1.8, 1.8};
        List<Double> seen = new ArrayList<>();
        for (int period = 0; period < othersPerPeriod.length; period++) {
            seen.add(othersPerPeriod[period]);
            assertEquals(expected[period], Capacity.available(2, FLOORS, seen), 1e-9, "period " + period);
        }
    }

    private static List<Double> list(String values) {
        List<Double> list = new ArrayList<>();
        for (String v : values.split(";")) {
            if (!v.isBlank()) {
                list.add(Double.parseDouble(v.trim()));
            }
        }
        return list;
    }
}
