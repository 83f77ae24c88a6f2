package io.tlsadmit.loadtests.rubis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TransitionTableTest {

    private final TransitionTable browsing = TransitionTable.mix("browsing");
    private final TransitionTable bidding = TransitionTable.mix("bidding");

    @Test
    void everyColumnOfBothMixesIsADistribution() {
        for (TransitionTable table : new TransitionTable[] {browsing, bidding}) {
            for (Interaction from : Interaction.values()) {
                if (!from.isPage()) {
                    continue;
                }
                double sum = 0;
                for (Interaction to : Interaction.values()) {
                    sum += table.probability(from, to);
                }
                assertEquals(1.0, sum, 1e-9, table.name() + " from " + from);
            }
        }
    }

    @Test
    void columnsThatDoNotSumToOneAreNormalised() {
        // browsing, from SearchItemsInCategory: Home 0.0005, Browse 0.0075, itself 0.44, ViewItem 0.55, End 0.2
        double sum = 0.0005 + 0.0075 + 0.44 + 0.55 + 0.2;
        assertEquals(0.44 / sum, browsing.probability(Interaction.SEARCH_ITEMS_IN_CATEGORY,
                Interaction.SEARCH_ITEMS_IN_CATEGORY), 1e-9);
        assertEquals(0.2 / sum, browsing.probability(Interaction.SEARCH_ITEMS_IN_CATEGORY, Interaction.END), 1e-9);
    }

    @Test
    void homeLeadsOnlyToBrowseInTheBrowsingMix() {
        Random random = new Random(7);
        for (int i = 0; i < 1000; i++) {
            assertEquals(Interaction.BROWSE, browsing.next(Interaction.HOME, random.nextDouble()));
        }
    }

    @Test
    void theBrowsingMixNeverWrites() {
        Random random = new Random(11);
        Interaction state = Interaction.HOME;
        for (int step = 0; step < 100_000; step++) {
            Interaction next = browsing.next(state, random.nextDouble());
            assertTrue(!next.writes(), () -> "browsing reached a write: " + next);
            state = next == Interaction.END || next == Interaction.BACK ? Interaction.HOME : next;
        }
    }

    @Test
    void drawsFollowTheColumnsProbabilities() {
        Random random = new Random(3);
        Map<Interaction, Integer> counts = new EnumMap<>(Interaction.class);
        int draws = 200_000;
        for (int i = 0; i < draws; i++) {
            counts.merge(browsing.next(Interaction.VIEW_ITEM, random.nextDouble()), 1, Integer::sum);
        }
        for (Interaction to : Interaction.values()) {
            double expected = browsing.probability(Interaction.VIEW_ITEM, to);
            assertEquals(expected, counts.getOrDefault(to, 0) / (double) draws, 0.005, "to " + to);
        }
    }

    @Test
    void thinkTimeMeanIsSevenSecondsInBothMixes() {
        assertEquals(7000, browsing.meanThinkMillis(Interaction.VIEW_ITEM));
        assertEquals(7000, bidding.meanThinkMillis(Interaction.STORE_BID));
    }

    @Test
    void aTableWithAMissingRowIsRejectedWithItsName() {
        String header = "TO\\FROM\t" + "x\t".repeat(Interaction.PAGES) + "think_ms\n";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TransitionTable.parse("short",
                new ByteArrayInputStream(header.getBytes(StandardCharsets.UTF_8))));
        assertTrue(e.getMessage().startsWith("short: expected a header and 29 state rows"), e.getMessage());
    }

    @Test
    void anUnknownMixIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TransitionTable.mix("buying"));
        assertTrue(e.getMessage().contains("browsing or bidding"), e.getMessage());
    }
}
