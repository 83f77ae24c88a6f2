package io.tlsadmit.cpumanager.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A server's raw claims period by period, and the claims the policy weighs. */
class DampingTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        a spike up for one period is ignored          | 0.5 0.5 2.0 0.5 0.5     | 0.5 0.5 0.5 0.5 0.5
        a dip for one period is ignored               | 1.2 1.2 0.1 1.2 1.2     | 1.2 1.2 1.2 1.2 1.2
        a real step is whole at its second period     | 0.5 0.5 1.5 1.5 1.5     | 0.5 0.5 0.5 1.5 1.5
        a step down likewise                          | 1.5 1.5 0.4 0.4 0.4     | 1.5 1.5 1.5 0.4 0.4
        a climb out of starvation, one period late    | 0.1 0.35 0.6 0.9 1.35   | 0.1 0.35 0.35 0.6 0.9
        noise between two levels stays between them   | 0.6 1.4 0.6 1.4 0.6     | 0.6 1.4 0.6 1.4 0.6
        a new server is not held back by nothing      | 1.0                     | 1.0
        two claims: the latest                        | 0.3 0.9                 | 0.3 0.9
        """)
    void theMedianOfTheLastThree(String what, String raw, String damped) {
        List<Double> claims = new ArrayList<>();
        List<Double> weighed = new ArrayList<>();
        for (String claim : raw.trim().split("\\s+")) {
            claims.add(Double.parseDouble(claim));
            weighed.add(Damping.claim(claims));
        }
        assertEquals(numbers(damped), weighed, what);
    }

    @Test
    void nothingToDampIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> Damping.claim(List.of()));
    }

    private static List<Double> numbers(String text) {
        List<Double> list = new ArrayList<>();
        for (String n : text.trim().split("\\s+")) {
            list.add(Double.parseDouble(n));
        }
        return list;
    }
}
