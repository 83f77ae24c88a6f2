package io.tlsadmit.cpumanager.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What each server is told (its assignment, from the CPUs available) and its quota (the assignment and its part of
 * what others used), on a 2-CPU host with a floor of 0.1.
 */
class DistributionTest {

    private static final List<Integer> CPUS = List.of(0, 1);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        the host is ours: quota = assignment, or the part     | 2    | 2:1.34 1:8  | 1.143 0.857   | 1.3333 0.857
        the night run: others took ~1 CPU, 2:1               | 0.94 | 2:3 1:0.3   | 0.7519 0.1881 | 1.4586 0.6667
        others took ~1 CPU, equal priority, both heavy       | 0.94 | 1:3 1:3     | 0.47 0.47     | 1.0 1.0
        requests fit in what is left: the spare by priority  | 1.5  | 1:0.5 1:0.5 | 0.75 0.75     | 1.0 1.0
        others took all but the floors                       | 0.2  | 2:3 1:3     | 0.1 0.1       | 1.3333 0.7
        """)
    void theGateIsToldTheAvailableShareAndTheQuotaKeepsTheOthersPartAsHeadroom(String what, double available,
            String claims, String assigned, String quotas) {
        List<Assignment> decided = Distribution.decide(claims(claims), available, CPUS, 0.1, true, true, false);
        assertClose(numbers(assigned), decided.stream().map(Assignment::cpus).toList(), what);
        assertClose(numbers(quotas), decided.stream().map(Assignment::ceiling).toList(), what);
        assertEquals(available, decided.stream().mapToDouble(Assignment::cpus).sum(), 1e-9, "all that is available");
        assertTrue(decided.stream().mapToDouble(Assignment::ceiling).sum() >= CPUS.size() - 1e-9, "quotas: every CPU");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        equal priority, one light: it may take its half back  | 1    | 1:0.12 1:3  | 0.1195 0.8805 | 0.5 0.8805
        2:1, the high priority light: two thirds              | 1    | 2:0.12 1:3  | 0.12 0.88     | 0.6667 0.88
        2:1, the low priority light: a third                  | 1    | 2:3 1:0.12  | 0.8901 0.1099 | 0.8901 0.3333
        others took 0.2: the part is of all the CPUs          | 0.8  | 1:0.12 1:3  | 0.1194 0.6806 | 0.5 0.7806
        requests fit: the spare, or the part                  | 1    | 1:0.7 1:0.1 | 0.8 0.2       | 0.8 0.5
        """)
    void noQuotaIsBelowTheServersPartOfTheCpusByPriority(String what, double available,
            String claims, String assigned, String quotas) {
        List<Assignment> decided = Distribution.decide(claims(claims), available, List.of(0), 0.1, true, true, false);
        assertClose(numbers(assigned), decided.stream().map(Assignment::cpus).toList(), what);
        assertClose(numbers(quotas), decided.stream().map(Assignment::ceiling).toList(), what);
        assertEquals(available, decided.stream().mapToDouble(Assignment::cpus).sum(), 1e-9, "all that is available");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        2:1 on 2, the low priority at its part: what is left  | 2 | 2 1 | 1.9 0.6667      | 1.9 0.1
        no quotas: an even share                              | 2 | 1 1 | NaN NaN         | 1.0 1.0
        one CPU, the light one at its part                    | 1 | 1 1 | 0.5 0.8805      | 0.1195 0.8805
        both at their parts                                   | 1 | 1 1 | 0.5 0.5         | 0.5 0.5
        quotas of a manager before parts: the assignments     | 1 | 1 1 | 0.3 0.7         | 0.3 0.7
        """)
    void aRestartedManagerTakesTheQuotasAboveThePartsAsTheyAreAndSharesTheRestAmongThoseAtTheirParts(String what,
            double cpus, String priorities, String quotas, String requests) {
        List<Integer> p = java.util.Arrays.stream(priorities.split(" ")).map(Integer::valueOf).toList();
        double[] adopted = Distribution.adoptedRequests(p, numbers(quotas).stream().mapToDouble(Double::doubleValue).toArray(), cpus);
        assertClose(numbers(requests), java.util.Arrays.stream(adopted).boxed().toList(), what);
    }

    @ParameterizedTest(name = "available {0}")
    @CsvSource({"2, 1, 1", "1, 0.5, 0.5"})
    void aWholeCpuSetIsToldItsPartOfWhatTheOthersLeft(double available, double first, double second) {
        List<Assignment> decided = Distribution.decide(claims("1:3 1:3"), available, CPUS, 0.1, true, false, true);
        assertClose(List.of(first, second), decided.stream().map(Assignment::cpus).toList(), "told");
        assertEquals(List.of(1.0, 1.0), decided.stream().map(Assignment::ceiling).toList());
        assertEquals(List.of(List.of(0), List.of(1)), decided.stream().map(Assignment::cpuSet).toList());
    }

    private static void assertClose(List<Double> expected, List<Double> actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), 1e-4, what + ": " + actual);
        }
    }

    private static List<Claim> claims(String text) {
        List<Claim> claims = new ArrayList<>();
        for (String claim : text.trim().split("\\s+")) {
            String[] p = claim.split(":");
            claims.add(new Claim("app" + claims.size(), Integer.parseInt(p[0]), Double.parseDouble(p[1])));
        }
        return claims;
    }

    private static List<Double> numbers(String text) {
        List<Double> list = new ArrayList<>();
        for (String n : text.trim().split("\\s+")) {
            list.add(Double.parseDouble(n));
        }
        return list;
    }
}
