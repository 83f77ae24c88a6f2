package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RefusalEpisodesTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void oneLineWhenRefusingStartsAndOneWhenItHasBeenQuietLongEnough() {
        RefusalEpisodes episodes = new RefusalEpisodes(10 * SECOND);
        assertNull(episodes.check(0, 0), "nothing refused yet");
        RefusalEpisodes.Change start = episodes.check(40, SECOND);
        assertTrue(start.started());
        assertEquals(40, start.refusedLastCheck());
        for (int s = 2; s <= 20; s++) {
            assertNull(episodes.check(40 + 40L * (s - 1), s * SECOND), "still refusing at " + s + " s: no new line");
        }
        long total = 40 + 40L * 19;
        for (int s = 21; s < 30; s++) {
            assertNull(episodes.check(total, s * SECOND), "quiet for less than 10 s at " + s + " s");
        }
        RefusalEpisodes.Change end = episodes.check(total, 30 * SECOND);
        assertFalse(end.started());
        assertEquals(total, end.refusedSoFar(), "every refusal of the episode");
        assertEquals(19, end.seconds(), 1e-9, "from the first to the last refusal");
        assertFalse(episodes.isRefusing());
        assertNull(episodes.check(total, 31 * SECOND));
    }

    @Test
    void refusalsBeforeTheFirstCheckStartAnEpisode() {
        RefusalEpisodes episodes = new RefusalEpisodes(SECOND);
        RefusalEpisodes.Change start = episodes.check(2, SECOND / 2);
        assertTrue(start.started(), "counts are since the connector started");
        assertEquals(2, start.refusedLastCheck());
    }
}
