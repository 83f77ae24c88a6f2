package io.tlsadmit.loadtests.rubis;

/**
 * The states of a RUBiS client, in the order of the transition tables' rows and columns
 * (../shared/rubis/SPEC.md), plus the two pseudo-states {@link #BACK} and {@link #END}.
 */
public enum Interaction {
    HOME("Home", false),
    REGISTER("Register", false),
    REGISTER_USER("RegisterUser", true),
    BROWSE("Browse", false),
    BROWSE_CATEGORIES("BrowseCategories", false),
    SEARCH_ITEMS_IN_CATEGORY("SearchItemsInCategory", false),
    BROWSE_REGIONS("BrowseRegions", false),
    BROWSE_CATEGORIES_IN_REGION("BrowseCategoriesInRegion", false),
    SEARCH_ITEMS_IN_REGION("SearchItemsInRegion", false),
    VIEW_ITEM("ViewItem", false),
    VIEW_USER_INFO("ViewUserInfo", false),
    VIEW_BID_HISTORY("ViewBidHistory", false),
    BUY_NOW_AUTH("BuyNowAuth", false),
    BUY_NOW("BuyNow", false),
    STORE_BUY_NOW("StoreBuyNow", true),
    PUT_BID_AUTH("PutBidAuth", false),
    PUT_BID("PutBid", false),
    STORE_BID("StoreBid", true),
    PUT_COMMENT_AUTH("PutCommentAuth", false),
    PUT_COMMENT("PutComment", false),
    STORE_COMMENT("StoreComment", true),
    SELL("Sell", false),
    SELECT_CATEGORY_TO_SELL_ITEM("SelectCategoryToSellItem", false),
    SELL_ITEM_FORM("SellItemForm", false),
    REGISTER_ITEM("RegisterItem", true),
    ABOUT_ME_AUTH("AboutMeAuth", false),
    ABOUT_ME("AboutMe", false),
    /** Go back to the previous page. */
    BACK("Back", false),
    /** The user leaves. */
    END("End", false);

    /** The 27 states that are pages; the tables' columns, in order. */
    public static final int PAGES = 27;

    private final String title;
    private final boolean writes;

    Interaction(String title, boolean writes) {
        this.title = title;
        this.writes = writes;
    }

    /** The name in reports (Gatling request names, our CSV). */
    public String title() {
        return title;
    }

    public boolean writes() {
        return writes;
    }

    public boolean isPage() {
        return ordinal() < PAGES;
    }

    /** Only these pages can be left with the browser's Back button (SPEC: pseudo-state Back). */
    public boolean canGoBackFrom() {
        return this == VIEW_ITEM || this == VIEW_USER_INFO || this == VIEW_BID_HISTORY;
    }

    public static Interaction byTitle(String title) {
        for (Interaction interaction : values()) {
            if (interaction.title.equals(title)) {
                return interaction;
            }
        }
        throw new IllegalArgumentException("no RUBiS interaction named " + title);
    }
}
