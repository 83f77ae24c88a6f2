package io.tlsadmit.loadtests.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoopbackSourcesTest {

    @Test
    void addressesAreDistinctLoopbackHostsOtherThan127001() {
        List<String> addresses = LoopbackSources.first(LoopbackSources.MAX);
        assertEquals(List.of("127.0.1.1", "127.0.1.2"), addresses.subList(0, 2));
        assertEquals("127.0.1.254", addresses.get(253));
        assertEquals("127.0.2.1", addresses.get(254));
        assertEquals("127.0.255.254", addresses.get(addresses.size() - 1));
        assertEquals(addresses.size(), new HashSet<>(addresses).size());
        assertTrue(addresses.stream().noneMatch(a -> a.endsWith(".0") || a.endsWith(".255")));
    }

    @Test
    void noneMeansTheSystemsChoice() {
        assertEquals(List.of(), LoopbackSources.first(0));
        assertThrows(IllegalArgumentException.class, () -> LoopbackSources.first(LoopbackSources.MAX + 1));
    }
}
