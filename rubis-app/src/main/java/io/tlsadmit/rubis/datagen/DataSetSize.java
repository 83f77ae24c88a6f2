package io.tlsadmit.rubis.datagen;

import java.util.Locale;

/**
 * How many rows of each kind a load writes. Scale 1 is the full data set of the RUBiS papers: 1,000,000 users,
 * 32,667 active items split over the categories as in the original, 500,000 ended auctions.
 */
public record DataSetSize(double scale, int users, int[] activeItemsPerCategory, int oldItems) {

    public static final int FULL_USERS = 1_000_000;
    public static final int FULL_OLD_ITEMS = 500_000;
    /** The largest scale accepted: ids are INT columns and the full set already takes ~1.4 GB. */
    public static final double MAX_SCALE = 10;

    public static DataSetSize of(double scale) {
        if (!(scale > 0) || scale > MAX_SCALE) {
            throw new IllegalArgumentException(
                    String.format(Locale.ROOT, "scale must be in (0, %s], got %s", MAX_SCALE, scale));
        }
        int[] perCategory = new int[Catalog.CATEGORIES.size()];
        for (int i = 0; i < perCategory.length; i++) {
            // every category keeps at least one active item, so no browse page is empty at small scales
            perCategory[i] = Math.max(1, (int) Math.round(Catalog.CATEGORIES.get(i).fullSizeActiveItems() * scale));
        }
        int users = Math.max(Catalog.REGIONS.size(), (int) Math.round(FULL_USERS * scale));
        int oldItems = (int) Math.round(FULL_OLD_ITEMS * scale);
        return new DataSetSize(scale, users, perCategory, oldItems);
    }

    public int activeItems() {
        int sum = 0;
        for (int n : activeItemsPerCategory) {
            sum += n;
        }
        return sum;
    }

    public int activeItemsIn(int categoryId) {
        return activeItemsPerCategory[categoryId - 1];
    }
}
