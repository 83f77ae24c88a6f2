package io.tlsadmit.rubis.datagen;

import java.util.List;

/** The fixed reference data: 62 regions and the 20 categories with their share of the active items. */
public final class Catalog {

    /** A category and how many active items it holds in the full-size data set. */
    public record Category(int id, String name, int fullSizeActiveItems) {
    }

    /** Region ids are 1-based: the original drew 0-based ids and so never picked the last region. */
    public static final List<String> REGIONS = List.of(
            "AK--Anchorage", "AL--Birmingham", "AR--Little Rock", "AZ--Phoenix", "AZ--Tucson",
            "CA--Fresno", "CA--Los Angeles", "CA--Oakland", "CA--Sacramento", "CA--San Diego",
            "CA--San Francisco", "CA--San Jose", "CO--Denver", "CT--Hartford", "DC--Washington",
            "FL--Jacksonville", "FL--Miami", "FL--Orlando", "FL--Tampa", "GA--Atlanta",
            "HI--Honolulu", "IA--Des Moines", "ID--Boise", "IL--Chicago", "IN--Indianapolis",
            "KS--Wichita", "KY--Louisville", "LA--New Orleans", "MA--Boston", "MD--Baltimore",
            "ME--Portland", "MI--Detroit", "MN--Minneapolis", "MO--Kansas City", "MO--St. Louis",
            "MS--Jackson", "MT--Billings", "NC--Charlotte", "NC--Raleigh", "NE--Omaha",
            "NJ--Newark", "NM--Albuquerque", "NV--Las Vegas", "NY--Buffalo", "NY--New York",
            "OH--Cleveland", "OH--Columbus", "OK--Oklahoma City", "OR--Portland", "PA--Philadelphia",
            "PA--Pittsburgh", "RI--Providence", "SC--Columbia", "TN--Memphis", "TN--Nashville",
            "TX--Austin", "TX--Dallas", "TX--Houston", "TX--San Antonio", "UT--Salt Lake City",
            "WA--Seattle", "WI--Milwaukee");

    public static final List<Category> CATEGORIES = List.of(
            new Category(1, "Antiques & Art", 1374),
            new Category(2, "Books", 2691),
            new Category(3, "Business, Office & Industrial", 259),
            new Category(4, "Clothing & Accessories", 2874),
            new Category(5, "Coins", 538),
            new Category(6, "Collectibles", 7521),
            new Category(7, "Computers", 664),
            new Category(8, "Consumer Electronics", 586),
            new Category(9, "Dolls & Bears", 1077),
            new Category(10, "Home & Garden", 976),
            new Category(11, "Jewelry, Gems & Watches", 2325),
            new Category(12, "Movies & Television", 1051),
            new Category(13, "Music", 1420),
            new Category(14, "Photo", 170),
            new Category(15, "Pottery & Glass", 1069),
            new Category(16, "Sports", 3029),
            new Category(17, "Stamps", 305),
            new Category(18, "Tickets & Travel", 242),
            new Category(19, "Toys & Hobbies", 3671),
            new Category(20, "Everything Else", 825));

    private Catalog() {
    }

    /** The region of user {@code k}: (k mod 62), as a 1-based id. */
    public static int regionOfUser(long userId) {
        return (int) (userId % REGIONS.size()) + 1;
    }
}
