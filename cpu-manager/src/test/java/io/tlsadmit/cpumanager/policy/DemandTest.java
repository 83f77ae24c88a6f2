package io.tlsadmit.cpumanager.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a server claims, from its gate's request and what the manager saw itself. */
class DemandTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        answering, room to spare: the gate's request                    | 0.6 | ANSWERED | 1.0 | 0.5  | 0.6
        answering, saturated at the floor: 0.1 + 0.25                   | 0.2 | ANSWERED | 0.1 | 0.1  | 0.35
        answering, saturated at 1 CPU: 1.5 times                        | 0.8 | ANSWERED | 1.0 | 0.95 | 1.5
        saturated, but the gate asks for more still: the gate           | 3.0 | ANSWERED | 1.0 | 0.99 | 3.0
        just below saturation (0.89 of 1): what it used                 | 0.5 | ANSWERED | 1.0 | 0.89 | 0.89
        the gate reads less than the process used: what it used        | 0.1 | ANSWERED | 0.6 | 0.45 | 0.45
        silent: at least what it had                                    | 0.2 | MISSED   | 0.7 | 0.1  | 0.7
        silent and saturated: it climbs as well                         | 0.2 | MISSED   | 0.4 | 0.4  | 0.65
        use unknown (first period): the gate's request                  | 0.3 | ANSWERED | 0.5 | NaN  | 0.3
        before the first assignment: the gate's request                 | 0.3 | ANSWERED | 0   | 0.2  | 0.3
        lost (past the grace), hung: nothing, whatever it asked before   | 1.5 | LOST     | 0.7 | 0.0  | 0.0
        lost, still working below its share: what it used               | 1.5 | LOST     | 0.7 | 0.3  | 0.3
        lost and starved at the floor (the evening run): it climbs      | 0.2 | LOST     | 0.1 | 0.1  | 0.35
        lost, use unknown: nothing                                      | 0.2 | LOST     | 0.1 | NaN  | 0.0
        """)
    void claims(String name, double request, Demand.Voice voice, double assigned, double used, double expected) {
        assertEquals(expected, Demand.claim(request, voice, assigned, used), 1e-9, name);
    }
}
