package io.tlsadmit.rubis.datagen;

import java.util.SplittableRandom;

/**
 * Filler text for descriptions and comments: one block of pseudo-words made once per seed, from which each row takes
 * a slice. Slicing keeps loading fast (no per-character randomness) and the output deterministic.
 */
final class Prose {

    private static final String[] WORDS = {
        "vintage", "mint", "rare", "boxed", "signed", "original", "restored", "complete", "working", "sealed",
        "classic", "limited", "edition", "collector", "genuine", "handmade", "antique", "modern", "large", "small",
        "set", "lot", "pair", "bundle", "series", "model", "print", "album", "card", "lamp", "clock", "vase", "coin",
        "stamp", "doll", "camera", "guitar", "watch", "ring", "poster", "ticket", "book", "chair", "table", "bear",
        "condition", "shipping", "included", "excellent", "tested", "minor", "wear", "never", "used", "with",
        "the", "and", "for", "from", "in", "of", "a", "no", "reserve", "great", "gift", "estate", "find"
    };

    private final String block;

    Prose(long seed, int length) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder text = new StringBuilder(length + 16);
        while (text.length() < length) {
            text.append(WORDS[random.nextInt(WORDS.length)]);
            text.append(random.nextInt(12) == 0 ? ". " : " ");
        }
        this.block = text.substring(0, length);
    }

    /** A slice of {@code length} characters (1..block size) starting at a random place; never blank. */
    String slice(SplittableRandom random, int length) {
        int start = random.nextInt(block.length() - length + 1);
        String slice = block.substring(start, start + length);
        return slice.isBlank() ? "x" : slice;
    }

    /** A short title of two to four words. */
    String title(SplittableRandom random) {
        int words = 2 + random.nextInt(3);
        StringBuilder title = new StringBuilder();
        for (int i = 0; i < words; i++) {
            if (i > 0) {
                title.append(' ');
            }
            String word = WORDS[random.nextInt(20) + 10 * (i % 5)];
            title.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
        }
        return title.toString();
    }
}
