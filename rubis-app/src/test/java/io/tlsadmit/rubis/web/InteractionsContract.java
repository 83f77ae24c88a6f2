package io.tlsadmit.rubis.web;

import static io.tlsadmit.rubis.web.EmbeddedRubis.form;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every interaction, driven over HTTP against a webapp whose database the bootstrap loaded with a known seed.
 * Expected values come from the database itself, read with plain JDBC beside the webapp. Subclasses run the same
 * specification on H2 and on MariaDB.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class InteractionsContract {

    private static final Pattern ITEM_LINK = Pattern.compile("ViewItem\\?itemId=(\\d+)\"");
    private static final Pattern BIDDER = Pattern.compile("<tr class=\"bid\"><td><a href=\"[^\"]*userId=(\\d+)\"");

    protected abstract EmbeddedRubis server();

    protected abstract TestDatabase database();

    // ---- static pages and images

    @Test
    void staticPagesCarryTheLogoAndTheSiteLinks() {
        for (String page : List.of("", "index.html", "register.html", "browse.html", "sell.html", "about_me.html")) {
            HttpResponse<String> response = server().get(page);
            assertEquals(200, response.statusCode(), page);
            assertTrue(response.body().contains("images/logo.jpg"), page);
            for (String link : List.of("index.html", "register.html", "browse.html", "sell.html", "about_me.html")) {
                assertTrue(response.body().contains("/rubis/" + link), page + " links " + link);
            }
        }
    }

    @Test
    void imagesAreJpegsOfAboutTheOriginalSizes() {
        assertImage("images/logo.jpg", 15_000, 25_000);
        assertImage("images/bid_now.jpg", 2_000, 4_500);
        assertImage("images/buy_it_now.jpg", 3_500, 7_000);
    }

    private void assertImage(String path, int minBytes, int maxBytes) {
        HttpResponse<byte[]> response = server().getBytes(path);
        assertEquals(200, response.statusCode(), path);
        assertEquals("image/jpeg", response.headers().firstValue("Content-Type").orElse(""), path);
        byte[] body = response.body();
        assertTrue(body.length >= minBytes && body.length <= maxBytes, path + " is " + body.length + " bytes");
        assertEquals((byte) 0xFF, body[0]);
        assertEquals((byte) 0xD8, body[1]);
    }

    @Test
    void healthSaysUpWithTheLoadedData() {
        HttpResponse<String> response = server().get("health");
        assertEquals(200, response.statusCode());
        assertTrue(response.body().startsWith("status: UP"), response.body());
        assertTrue(response.body().contains("max user id: "), response.body());
    }

    // ---- browsing

    @Test
    void browseCategoriesListsAllTwentyLinkingToTheirSearch() {
        String body = ok(server().get("servlet/BrowseCategories"));
        assertEquals(20, count(body, "SearchItemsByCategory?category="));
        assertTrue(body.contains("Toys &amp; Hobbies"), "names are escaped");
    }

    @Test
    void browseRegionsListsAllSixtyTwoAndEachLeadsToItsCategories() {
        String body = ok(server().get("servlet/BrowseRegions"));
        assertEquals(62, count(body, "BrowseCategoriesInRegion?region="));
        String inRegion = ok(server().get("servlet/BrowseCategoriesInRegion?region=62"));
        assertEquals(20, count(inRegion, "SearchItemsByRegion?category="));
        assertTrue(inRegion.contains("region=62"));
    }

    @Test
    void searchByCategoryListsOpenItemsSoonestEndingFirstWithTheirPrices() throws SQLException {
        List<long[]> expected = ids("SELECT id, CASE WHEN nb_of_bids = 0 THEN initial_price"
                + " WHEN max_bid > initial_price THEN max_bid ELSE initial_price END FROM items"
                + " WHERE category = 6 AND end_date >= ? ORDER BY end_date, id", now());
        String body = ok(server().get("servlet/SearchItemsByCategory?category=6&nbOfItems=100"));
        List<Long> shown = itemIds(body);
        assertEquals(expected.stream().map(row -> row[0]).toList(), shown);
        for (long[] row : expected) {
            assertTrue(body.contains(">" + BigDecimal.valueOf(row[1]).setScale(2) + "<"), "price of item " + row[0]);
        }
        assertEquals(expected.size(), count(body, "PutBidAuth?itemId="), "a bid-now link per item");
    }

    @Test
    void searchPagesThroughACategoryAndSaysSorryPastTheEnd() throws SQLException {
        List<Long> all = ids("SELECT id, 0 FROM items WHERE category = 6 AND end_date >= ? ORDER BY end_date, id",
                now()).stream().map(row -> row[0]).toList();
        assertTrue(all.size() > 10, "the test data set has more than two pages of Collectibles");
        String first = ok(server().get("servlet/SearchItemsByCategory?category=6&page=0&nbOfItems=5"));
        String second = ok(server().get("servlet/SearchItemsByCategory?category=6&page=1&nbOfItems=5"));
        assertEquals(all.subList(0, 5), itemIds(first));
        assertEquals(all.subList(5, 10), itemIds(second));
        assertTrue(first.contains("page=1&amp;nbOfItems=5\">Next page"));
        assertFalse(first.contains("Previous page"));
        assertTrue(second.contains("page=0&amp;nbOfItems=5\">Previous page"));
        int past = all.size() / 5 + 1;
        String beyond = ok(server().get("servlet/SearchItemsByCategory?category=6&nbOfItems=5&page=" + past));
        assertTrue(beyond.contains("Sorry"), beyond);
        assertTrue(itemIds(beyond).isEmpty());
    }

    @Test
    void searchByRegionListsOnlyItemsOfSellersLivingThere() throws SQLException {
        List<Long> expected = ids("SELECT i.id, 0 FROM items i JOIN users u ON u.id = i.seller"
                + " WHERE u.region = 7 AND i.category = 6 AND i.end_date >= ? ORDER BY i.end_date, i.id", now())
                .stream().map(row -> row[0]).toList();
        String body = ok(server().get("servlet/SearchItemsByRegion?category=6&region=7&nbOfItems=100"));
        assertEquals(expected, itemIds(body));
        if (expected.isEmpty()) {
            assertTrue(body.contains("Sorry"));
        }
    }

    @Test
    void anEmptyCategoryGetsASorryPage() throws SQLException {
        int regionWithoutSellers = (int) ids("SELECT r.id, 0 FROM regions r WHERE NOT EXISTS (SELECT 1 FROM items i"
                + " JOIN users u ON u.id = i.seller WHERE u.region = r.id AND i.category = 14) ORDER BY r.id")
                .get(0)[0];
        String body = ok(server().get("servlet/SearchItemsByRegion?category=14&region=" + regionWithoutSellers));
        assertTrue(body.contains("Sorry, but there are no items available in this category."), body);
    }

    // ---- viewing

    @Test
    void viewItemShowsPriceSellerAndEveryFollowUpLink() throws SQLException {
        long[] item = ids("SELECT id, seller, max_bid FROM items WHERE nb_of_bids > 0 AND quantity = 1"
                + " AND end_date >= ? ORDER BY id", now()).get(0);
        String body = ok(server().get("servlet/ViewItem?itemId=" + item[0]));
        assertAll(
                () -> assertTrue(body.contains("<th>Current price</th><td>" + BigDecimal.valueOf(item[2]).setScale(2))),
                () -> assertTrue(body.contains("ViewUserInfo?userId=" + item[1] + "\">user" + item[1] + "<")),
                () -> assertTrue(body.contains("ViewBidHistory?itemId=" + item[0])),
                () -> assertTrue(body.contains("PutCommentAuth?to=" + item[1] + "&amp;itemId=" + item[0])),
                () -> assertTrue(body.contains("PutBidAuth?itemId=" + item[0] + "\"><img")));
    }

    @Test
    void viewItemOfAMultiUnitAuctionPricesTheLowestBidThatStillWins() throws SQLException {
        long[] item = ids("SELECT id, quantity FROM items WHERE quantity > 1 AND nb_of_bids >= quantity"
                + " AND end_date >= ? ORDER BY id", now()).get(0);
        List<long[]> bids = ids("SELECT bid, qty FROM bids WHERE item_id = ? ORDER BY bid DESC, id", item[0]);
        long covered = 0;
        long price = 0;
        for (long[] bid : bids) {
            price = bid[0];
            covered += bid[1];
            if (covered >= item[1]) {
                break;
            }
        }
        String body = ok(server().get("servlet/ViewItem?itemId=" + item[0]));
        assertTrue(body.contains("<th>Current price</th><td>" + BigDecimal.valueOf(price).setScale(2) + "<"), body);
    }

    @Test
    void viewItemFindsEndedAuctionsAndOffersNoBidding() throws SQLException {
        long oldId = ids("SELECT MIN(id), 0 FROM old_items").get(0)[0];
        String body = ok(server().get("servlet/ViewItem?itemId=" + oldId));
        assertTrue(body.contains("This auction has ended."));
        assertFalse(body.contains("PutBidAuth"));
    }

    @Test
    void bidHistoryListsBidsNewestFirstWithTheBidderLinked() throws SQLException {
        long itemId = ids("SELECT id, 0 FROM items WHERE nb_of_bids >= 3 ORDER BY id").get(0)[0];
        List<Long> expected = ids("SELECT user_id, 0 FROM bids WHERE item_id = ? ORDER BY date DESC, id DESC", itemId)
                .stream().map(row -> row[0]).toList();
        String body = ok(server().get("servlet/ViewBidHistory?itemId=" + itemId));
        List<Long> bidders = new ArrayList<>();
        Matcher matcher = BIDDER.matcher(body);
        while (matcher.find()) {
            bidders.add(Long.parseLong(matcher.group(1)));
        }
        assertEquals(expected, bidders);
    }

    @Test
    void userInfoShowsTheProfileAndEveryCommentWithItsAuthor() throws SQLException {
        long[] user = ids("SELECT to_user_id, COUNT(*) FROM comments GROUP BY to_user_id ORDER BY COUNT(*) DESC,"
                + " to_user_id").get(0);
        long rating = ids("SELECT rating, 0 FROM users WHERE id = ?", user[0]).get(0)[0];
        String body = ok(server().get("servlet/ViewUserInfo?userId=" + user[0]));
        assertTrue(body.contains("Information about user" + user[0] + "<"));
        assertTrue(body.contains("<td class=\"rating\">" + rating + "<"));
        assertEquals(user[1], count(body, "<div class=\"comment\">"));
    }

    // ---- logins

    @Test
    void loginFormsCarryTheirParametersWithoutTouchingTheDatabase() {
        assertTrue(ok(server().get("servlet/PutBidAuth?itemId=5")).contains("name=\"itemId\" value=\"5\""));
        assertTrue(ok(server().get("servlet/BuyNowAuth?itemId=6")).contains("name=\"itemId\" value=\"6\""));
        String comment = ok(server().get("servlet/PutCommentAuth?itemId=7&to=8"));
        assertTrue(comment.contains("name=\"itemId\" value=\"7\"") && comment.contains("name=\"to\" value=\"8\""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PutBid", "BuyNow", "PutComment", "SelectCategoryToSellItem", "AboutMe"})
    void aWrongPasswordGetsAnErrorPage(String interaction) {
        HttpResponse<String> response = server().post(interaction,
                form("nickname", "user3", "password", "password4", "itemId", 1, "to", 2));
        assertEquals(403, response.statusCode());
        assertTrue(response.body().contains("ERROR"));
        assertTrue(response.body().contains("wrong nickname or password"));
    }

    // ---- writes

    @Test
    void aBidRaisesTheMaximumBidAndTheBidCount() throws SQLException {
        long[] item = ids("SELECT id, nb_of_bids, quantity FROM items WHERE quantity = 1 AND end_date >= ?"
                + " ORDER BY id DESC", now()).get(0);
        String form = ok(server().post("PutBid", form("nickname", "user11", "password", "password11",
                "itemId", item[0])));
        BigDecimal minBid = new BigDecimal(hidden(form, "minBid"));
        BigDecimal bid = minBid.add(new BigDecimal("7.50"));
        String stored = ok(server().post("StoreBid", form("itemId", item[0], "userId", hidden(form, "userId"),
                "minBid", minBid, "bid", bid, "maxBid", bid.add(BigDecimal.TEN), "maxQty", 1, "qty", 1)));
        assertTrue(stored.contains("Your bid has been stored"));
        String view = ok(server().get("servlet/ViewItem?itemId=" + item[0]));
        assertTrue(view.contains("<th>Current price</th><td>" + bid.toPlainString() + "<"), view);
        assertTrue(view.contains("<th>Number of bids</th><td>" + (item[1] + 1) + " "), view);
        String history = ok(server().get("servlet/ViewBidHistory?itemId=" + item[0]));
        Matcher newest = BIDDER.matcher(history);
        assertTrue(newest.find());
        assertEquals("11", newest.group(1), "the new bid is listed first");
    }

    @Test
    void aBidBelowTheMinimumIsRefused() {
        HttpResponse<String> response = server().post("StoreBid", form("itemId", 1, "userId", 1, "minBid", "100",
                "bid", "99.99", "maxBid", "200", "maxQty", 1, "qty", 1));
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("ERROR"));
    }

    @Test
    void buyingNowLowersTheQuantityAndEndsTheAuctionWhenSoldOut() throws SQLException {
        long[] item = ids("SELECT id, quantity FROM items WHERE quantity > 1 AND end_date >= ? ORDER BY id", now())
                .get(0);
        String form = ok(server().post("BuyNow", form("nickname", "user12", "password", "password12",
                "itemId", item[0])));
        assertEquals(String.valueOf(item[1]), hidden(form, "maxQty"));
        String bought = ok(server().post("StoreBuyNow", form("itemId", item[0], "userId", 12, "maxQty", item[1],
                "qty", 1)));
        assertTrue(bought.contains("now has " + (item[1] - 1) + " left"), bought);
        assertTrue(ok(server().get("servlet/ViewItem?itemId=" + item[0]))
                .contains("<th>Quantity</th><td>" + (item[1] - 1) + "<"));

        String rest = ok(server().post("StoreBuyNow", form("itemId", item[0], "userId", 12, "maxQty", item[1] - 1,
                "qty", item[1] - 1)));
        assertTrue(rest.contains("now has 0 left"));
        assertTrue(ok(server().get("servlet/ViewItem?itemId=" + item[0])).contains("This auction has ended."));
        HttpResponse<String> again = server().post("StoreBuyNow", form("itemId", item[0], "userId", 12,
                "maxQty", 1, "qty", 1));
        assertEquals(409, again.statusCode());
        assertTrue(again.body().contains("ERROR"));
        String aboutMe = ok(server().post("AboutMe", form("nickname", "user12", "password", "password12")));
        assertTrue(aboutMe.contains("ViewItem?itemId=" + item[0]), "AboutMe lists the purchase");
    }

    @Test
    void aCommentChangesTheRatingOfTheUserItIsAbout() throws SQLException {
        long before = ids("SELECT rating, 0 FROM users WHERE id = 20").get(0)[0];
        String form = ok(server().post("PutComment", form("nickname", "user13", "password", "password13",
                "itemId", 1, "to", 20)));
        assertTrue(form.contains("name=\"rating\""));
        String stored = ok(server().post("StoreComment", form("to", 20, "from", hidden(form, "from"), "itemId", 1,
                "rating", -3, "comment", "Slow to ship <b>but</b> fine")));
        assertTrue(stored.contains("Your comment has been stored"));
        String info = ok(server().get("servlet/ViewUserInfo?userId=20"));
        assertTrue(info.contains("<td class=\"rating\">" + (before - 3) + "<"), info);
        assertTrue(info.contains("Slow to ship &lt;b&gt;but&lt;/b&gt; fine"));
    }

    @Test
    void aRegisteredUserCanLogInAndTheNicknameIsThenTaken() {
        String nickname = "newbie" + database().url().hashCode() % 1000;
        Object[] fields = {"firstname", "Ada", "lastname", "Lovelace", "nickname", nickname, "password", "s3cret",
            "email", "ada@example.test", "region", "CA--San Francisco"};
        String welcome = ok(server().post("RegisterUser", form(fields)));
        assertTrue(welcome.contains("Welcome " + nickname));
        String aboutMe = ok(server().post("AboutMe", form("nickname", nickname, "password", "s3cret")));
        assertTrue(aboutMe.contains("Information about " + nickname));
        assertTrue(aboutMe.contains("CA--San Francisco"));

        HttpResponse<String> twice = server().post("RegisterUser", form(fields));
        assertEquals(409, twice.statusCode());
        assertTrue(twice.body().contains("ERROR") && twice.body().contains("already taken"));
    }

    @Test
    void registeringInAnUnknownRegionIsRefused() {
        HttpResponse<String> response = server().post("RegisterUser", form("firstname", "A", "lastname", "B",
                "nickname", "nowhere1", "password", "p", "email", "e@x.test", "region", "Atlantis"));
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("ERROR"));
    }

    @Test
    void aSoldItemIsRegisteredAndShownUnderItsNewId() throws SQLException {
        String categories = ok(server().post("SelectCategoryToSellItem",
                form("nickname", "user14", "password", "password14")));
        assertTrue(categories.contains("SellItemForm?category=3&amp;user=14"));
        String sellForm = ok(server().get("servlet/SellItemForm?category=3&user=14"));
        assertTrue(sellForm.contains("name=\"initialPrice\""));
        String registered = ok(server().post("RegisterItem", form("category", 3, "userId", 14,
                "name", "Desk <script>alert(1)</script>", "description", "Oak & steel", "initialPrice", "12.50",
                "reservePrice", "", "buyNow", "40", "quantity", 1, "duration", 3)));
        Matcher link = ITEM_LINK.matcher(registered);
        assertTrue(link.find(), registered);
        long newId = Long.parseLong(link.group(1));
        long lastLoaded = ids("SELECT MAX(id), 0 FROM old_items").get(0)[0];
        assertTrue(newId > lastLoaded, "new ids never collide with ended auctions");
        String view = ok(server().get("servlet/ViewItem?itemId=" + newId));
        assertTrue(view.contains("Desk &lt;script&gt;alert(1)&lt;/script&gt;"));
        assertFalse(view.contains("<script>"));
        assertTrue(view.contains("<th>Current price</th><td>12.50<"));
        assertTrue(view.contains("BuyNowAuth?itemId=" + newId));
    }

    @Test
    void aboutMeShowsTheUsersBidsAndTheCommentsAboutThem() throws SQLException {
        long userId = ids("SELECT b.user_id, 0 FROM bids b JOIN items i ON i.id = b.item_id WHERE i.end_date >= ?"
                + " ORDER BY b.user_id", now()).get(0)[0];
        String body = ok(server().post("AboutMe", form("nickname", "user" + userId, "password", "password" + userId)));
        assertTrue(body.contains("Items you are bidding on"));
        assertFalse(body.contains("Items you are bidding on</h3>\n<p>None."), body);
        assertTrue(body.contains("<h3>Comments</h3>"));
    }

    // ---- concurrency

    @Test
    void simultaneousBidsOnOneItemAreAllCounted() throws Exception {
        long[] item = ids("SELECT id, nb_of_bids FROM items WHERE end_date >= ? ORDER BY id", now()).get(1);
        long bidsBefore = ids("SELECT COUNT(*), 0 FROM bids WHERE item_id = ?", item[0]).get(0)[0];
        int bidders = 32;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(bidders);
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < bidders; i++) {
                int bidder = 100 + i;
                statuses.add(pool.submit(() -> {
                    start.await();
                    return server().post("StoreBid", form("itemId", item[0], "userId", bidder, "minBid", "1",
                            "bid", 6000 + bidder, "maxBid", 7000 + bidder, "maxQty", 1, "qty", 1)).statusCode();
                }));
            }
            start.countDown();
            for (Future<Integer> status : statuses) {
                assertEquals(200, status.get());
            }
        } finally {
            pool.shutdownNow();
        }
        long[] after = ids("SELECT nb_of_bids, max_bid FROM items WHERE id = ?", item[0]).get(0);
        long bidsAfter = ids("SELECT COUNT(*), 0 FROM bids WHERE item_id = ?", item[0]).get(0)[0];
        assertEquals(bidsBefore + bidders, bidsAfter);
        assertEquals(item[1] + bidders, after[0], "nb_of_bids counts every inserted bid");
        assertEquals(6000 + 100 + bidders - 1, after[1], "max_bid is the best of the bids");
    }

    // ---- bad input

    @ParameterizedTest
    @ValueSource(strings = {
        "servlet/ViewItem", "servlet/ViewItem?itemId=", "servlet/ViewItem?itemId=abc", "servlet/ViewItem?itemId=-4",
        "servlet/ViewItem?itemId=99999999999999999999999", "servlet/ViewItem?itemId=1e3",
        "servlet/ViewItem?itemId=%00", "servlet/ViewUserInfo?userId=0x10", "servlet/ViewBidHistory",
        "servlet/SearchItemsByCategory", "servlet/SearchItemsByCategory?category=1&page=-1",
        "servlet/SearchItemsByCategory?category=1&nbOfItems=100000000",
        "servlet/SearchItemsByRegion?category=1", "servlet/BrowseCategoriesInRegion?region=x",
        "servlet/PutBidAuth", "servlet/BuyNowAuth?itemId=%3Cscript%3E", "servlet/PutCommentAuth?itemId=1",
        "servlet/PutBid?itemId=1", "servlet/BuyNow?itemId=1&nickname=user1", "servlet/PutComment?itemId=1&to=2",
        "servlet/StoreBid?itemId=1&userId=1&minBid=1&bid=1e400&maxBid=2&maxQty=1&qty=1",
        "servlet/StoreBid?itemId=1&userId=1&minBid=1&bid=abc&maxBid=2&maxQty=1&qty=1",
        "servlet/StoreBid?itemId=1&userId=1&minBid=1&bid=5&maxBid=2&maxQty=1&qty=1",
        "servlet/StoreBid?itemId=1&userId=1&minBid=1&bid=5&maxBid=9&maxQty=1&qty=2",
        "servlet/StoreBid?itemId=1&userId=1&minBid=1&bid=5.001&maxBid=9&maxQty=1&qty=1",
        "servlet/StoreBid?itemId=1&userId=1&minBid=1&bid=99999999999&maxBid=99999999999&maxQty=1&qty=1",
        "servlet/StoreBuyNow?itemId=1&userId=1&maxQty=1", "servlet/StoreBuyNow?itemId=1&userId=1&maxQty=1&qty=0",
        "servlet/StoreComment?to=1&from=2&itemId=1&rating=4&comment=x",
        "servlet/StoreComment?to=1&from=2&itemId=1&rating=5",
        "servlet/SellItemForm?category=1", "servlet/SellItemForm?category=999&user=1",
        "servlet/RegisterItem?category=1&userId=1&name=x&description=y&initialPrice=-1&quantity=1&duration=3",
        "servlet/RegisterItem?category=1&userId=1&name=x&description=y&initialPrice=1&quantity=1&duration=8",
        "servlet/RegisterUser?firstname=a", "servlet/SelectCategoryToSellItem", "servlet/AboutMe?nickname=user1",
        "servlet/ViewItem?itemId=2000000000", "servlet/ViewUserInfo?userId=2000000000",
        "servlet/StoreBid?itemId=2000000000&userId=1&minBid=1&bid=5&maxBid=9&maxQty=1&qty=1",
        "servlet/StoreComment?to=2000000000&from=1&itemId=1&rating=5&comment=hi",
        "servlet/NoSuchInteraction", "no_such_page.html"})
    void badInputGetsAPlainErrorPageNeverATrace(String pathAndQuery) {
        HttpResponse<String> response = server().get(pathAndQuery);
        assertTrue(response.statusCode() >= 400 && response.statusCode() < 500,
                pathAndQuery + " answered " + response.statusCode());
        assertTrue(response.body().contains("ERROR"), pathAndQuery + ": " + response.body());
        assertFalse(response.body().contains("Exception"), pathAndQuery);
        assertFalse(response.body().contains("<script>"), pathAndQuery);
    }

    @Test
    void textTooLongForItsColumnIsRefused() {
        HttpResponse<String> response = server().post("StoreComment", form("to", 1, "from", 2, "itemId", 1,
                "rating", 5, "comment", "x".repeat(5000)));
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("longer than 2048"));
    }

    @Test
    void anUnsupportedMethodIsRefusedPolitely() {
        HttpResponse<String> response = server().send(HttpRequest.newBuilder(server().uri("servlet/ViewItem?itemId=1"))
                .method("DELETE", HttpRequest.BodyPublishers.noBody()).build());
        assertEquals(405, response.statusCode());
        assertTrue(response.body().contains("ERROR"));
    }

    // ---- helpers

    private static String ok(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), () -> response.uri() + "\n" + response.body());
        assertFalse(response.body().contains("ERROR"), () -> response.uri() + "\n" + response.body());
        return response.body();
    }

    private static Timestamp now() {
        return Timestamp.from(Instant.now());
    }

    private static List<Long> itemIds(String body) {
        List<Long> ids = new ArrayList<>();
        Matcher matcher = ITEM_LINK.matcher(body);
        while (matcher.find()) {
            ids.add(Long.parseLong(matcher.group(1)));
        }
        return ids;
    }

    private static int count(String body, String needle) {
        int n = 0;
        for (int at = body.indexOf(needle); at >= 0; at = body.indexOf(needle, at + 1)) {
            n++;
        }
        return n;
    }

    private static String hidden(String body, String name) {
        Matcher matcher = Pattern.compile("name=\"" + name + "\" value=\"([^\"]*)\"").matcher(body);
        assertTrue(matcher.find(), "hidden field " + name);
        return matcher.group(1);
    }

    /** Rows of two whole numbers (ids, counts, whole prices) from the test's own connection. */
    private List<long[]> ids(String sql, Object... parameters) throws SQLException {
        try (Connection connection = database().connect();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            List<long[]> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                int columns = result.getMetaData().getColumnCount();
                while (result.next()) {
                    long[] row = new long[columns];
                    for (int c = 0; c < columns; c++) {
                        row[c] = result.getBigDecimal(c + 1).longValueExact();
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }
}
