package io.tlsadmit.cpumanager.policy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tables of the policy. The thesis's own worked examples (§5.3) were not available to us; these rows are
 * worked from the rule by hand: {@code Assig_i = Prio_i·Req_i·nCPU / Σ Prio_j·Req_j} when the requests
 * do not fit, the sharing rule, its no-sharing-downwards variant, and the floor.
 */
class SharePolicyTest {

    /** claims: "name:priority:request" separated by spaces; expected: assignments in order. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        requests fit: each its request, spare split evenly           | 2 | 0   | true  | a:1:0.5 b:1:0.7   | 0.9 1.1
        requests fit: spare split 2:1 by priority                    | 2 | 0   | true  | a:2:0.5 b:1:0.5   | 1.166667 0.833333
        overload, equal priority: in proportion to requests          | 2 | 0   | true  | a:1:1.5 b:1:0.5   | 1.5 0.5
        a request above the host counts as the host (3 as 2)         | 2 | 0   | true  | a:1:3 b:1:1       | 1.333333 0.666667
        a low priority's spike does not crowd out the high one       | 2 | 0   | true  | a:2:1.34 b:1:8    | 1.145299 0.854701
        at most what a server could get: the host less the floors    | 2 | 0.1 | true  | a:1:5 b:1:1       | 1.3 0.7
        overload, priority 2:1, equal requests                       | 2 | 0   | true  | a:2:2 b:1:2       | 1.333333 0.666667
        study-like 4 CPUs, priority 2:1, 3 CPUs each requested       | 4 | 0   | true  | a:2:3 b:1:3       | 2.666667 1.333333
        sharing: a high-priority server capped at its request        | 2 | 0   | true  | a:3:0.5 b:1:3     | 0.5 1.5
        no sharing downwards: it keeps the rest                      | 2 | 0   | false | a:3:0.5 b:1:2     | 0.857143 1.142857
        no sharing downwards, the other's request counted as 2       | 2 | 0   | false | a:3:0.5 b:1:3     | 0.857143 1.142857
        sharing among three: two capped, the third gets the rest     | 2 | 0   | true  | a:2:0.1 b:3:0.3 c:1:1.8 | 0.1 0.3 1.6
        no sharing downwards among three: c gets only its share      | 2 | 0   | false | a:2:0.1 b:3:0.3 c:1:1.8 | 0.137931 0.620690 1.241379
        floor: an idle server keeps minCpus                          | 2 | 0.1 | true  | a:1:5 b:1:0       | 1.9 0.1
        floor under overload: the rest by priority and request       | 2 | 0.1 | true  | a:2:2.1 b:1:2.1   | 1.3 0.7
        nobody requests anything: even split                         | 2 | 0.1 | true  | a:1:0 b:1:0       | 1 1
        """)
    void assigns(String name, double cpus, double floor, boolean share, String claims, String expected) {
        double[] assigned = SharePolicy.assign(claims(claims), cpus, floor, share);
        assertArrayEquals(numbers(expected), assigned, 1e-5, name);
        assertEquals(cpus, sum(assigned), 1e-9, "every CPU is assigned");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        whole CPUs, priority 2:1 on 4 CPUs (2.67/1.33 round to 3/1)  | 4 | a:2:3 b:1:3     | 3 1
        whole CPUs: a request of 1.2 needs two CPUs                  | 3 | a:1:1.2 b:1:0.3 | 2 1
        whole CPUs: every server keeps one                           | 2 | a:1:8 b:1:0     | 1 1
        whole CPUs, overload equal priority                          | 4 | a:1:6 b:1:2     | 3 1
        """)
    void wholeCpus(String name, int cpus, String claims, String expected) {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < cpus; i++) {
            ids.add(i);
        }
        List<Assignment> assignments = Distribution.decide(claims(claims), ids.size(), ids, 0.1, true, false, true);
        double[] counts = assignments.stream().mapToDouble(Assignment::cpus).toArray();
        assertArrayEquals(numbers(expected), counts, 1e-9, name);
        int next = 0;
        for (Assignment a : assignments) {
            assertEquals((int) a.cpus(), a.cpuSet().size());
            for (int cpu : a.cpuSet()) {
                assertEquals(next++, cpu, "disjoint sets laid out in order");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        both: the quota never exceeds the set                        | a:2:0.5 b:1:3 | 0.5 1 | 1 1
        """)
    void quotaWithinWholeCpus(String name, String claims, String quotas, String setSizes) {
        List<Assignment> assignments = Distribution.decide(claims(claims), 2, List.of(0, 1), 0, true, true, true);
        assertArrayEquals(numbers(quotas), assignments.stream().mapToDouble(Assignment::cpus).toArray(), 1e-9);
        assertArrayEquals(numbers(setSizes), assignments.stream().mapToDouble(a -> a.cpuSet().size()).toArray(), 1e-9);
    }

    @ParameterizedTest
    @CsvSource({"0.5, 0.5, 3, '1 1 1'", "0.2, 0.3, 3, '1 1 1'", "2.5, 0.5, 3, '2 1'"})
    void apportionKeepsOneEachAndTheTotal(double a, double b, int cpus, String expected) {
        double[] shares = expected.split(" ").length == 3 ? new double[]{a, b, cpus - a - b} : new double[]{a, b};
        int[] whole = WholeCpus.apportion(shares, cpus);
        double[] asDoubles = new double[whole.length];
        for (int i = 0; i < whole.length; i++) {
            asDoubles[i] = whole[i];
        }
        assertArrayEquals(numbers(expected), asDoubles, 1e-9);
    }

    @org.junit.jupiter.api.Test
    void aFloorLargerThanTheCpusIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> SharePolicy.assign(claims("a:1:1 b:1:1 c:1:1"), 1, 0.5, true));
    }

    static List<Claim> claims(String text) {
        List<Claim> claims = new ArrayList<>();
        for (String claim : text.trim().split("\\s+")) {
            String[] f = claim.split(":");
            claims.add(new Claim(f[0], Integer.parseInt(f[1]), Double.parseDouble(f[2])));
        }
        return claims;
    }

    static double[] numbers(String text) {
        String[] parts = text.trim().split("\\s+");
        double[] values = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = Double.parseDouble(parts[i]);
        }
        return values;
    }

    private static double sum(double[] values) {
        double total = 0;
        for (double v : values) {
            total += v;
        }
        return total;
    }
}
