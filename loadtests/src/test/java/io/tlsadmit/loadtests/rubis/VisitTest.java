package io.tlsadmit.loadtests.rubis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VisitTest {

    private static final String HOME_PAGE = "<a href=\"/rubis/index.html\"><img src=\"/rubis/images/logo.jpg\"></a>"
            + "<a href=\"/rubis/browse.html\">Browse</a>";
    private static final String LISTING = """
            <a href="/rubis/servlet/ViewItem?itemId=17">Lamp</a>
            <a href="/rubis/servlet/ViewItem?itemId=23">Chair</a>
            <a href="/rubis/servlet/ViewItem?itemId=31">Table</a>
            """;
    private static final String ITEM = """
            <a href="/rubis/servlet/ViewUserInfo?userId=5">seller</a>
            <a href="/rubis/servlet/ViewBidHistory?itemId=17">bid history</a>
            <a href="/rubis/servlet/ViewUserInfo?userId=9">someone else</a>
            <a href="/rubis/servlet/PutBidAuth?itemId=17"><img src="/rubis/images/bid_now.jpg"></a>
            """;
    private static final String LOGIN = """
            <form method="post" action="/rubis/servlet/PutBid">
            <input type="hidden" name="itemId" value="17">
            <label>Nickname <input type="text" name="nickname" value=""></label>
            <label>Password <input type="password" name="password" value=""></label>
            <input type="submit" value="Log in"></form>
            """;

    @Test
    void aVisitStartsAtHome() {
        Visit visit = visit(TransitionTable.mix("browsing"), 42, 1000);
        assertEquals(PageRequest.get(Interaction.HOME, "/rubis/index.html"), visit.plan());
    }

    @Test
    void anItemIsChosenAmongTheLinksOfThePage() {
        TransitionTable always = table(Map.of(Interaction.SEARCH_ITEMS_IN_CATEGORY, Interaction.VIEW_ITEM));
        Set<String> chosen = new HashSet<>();
        for (int seed = 0; seed < 50; seed++) {
            Visit visit = visit(always, seed, 1000);
            visit.arrived(PageRequest.get(Interaction.SEARCH_ITEMS_IN_CATEGORY,
                    "/rubis/servlet/SearchItemsByCategory?category=3"), LISTING);
            PageRequest next = visit.plan();
            assertEquals(Interaction.VIEW_ITEM, next.interaction());
            chosen.add(next.path());
        }
        assertEquals(Set.of("/rubis/servlet/ViewItem?itemId=17", "/rubis/servlet/ViewItem?itemId=23",
                "/rubis/servlet/ViewItem?itemId=31"), chosen);
    }

    @Test
    void theUserInfoShownIsTheFirstUserLinkTheSeller() {
        Visit visit = visit(table(Map.of(Interaction.VIEW_ITEM, Interaction.VIEW_USER_INFO)), 1, 1000);
        visit.arrived(PageRequest.get(Interaction.VIEW_ITEM, "/rubis/servlet/ViewItem?itemId=17"), ITEM);
        assertEquals("/rubis/servlet/ViewUserInfo?userId=5", visit.plan().path());
    }

    @Test
    void aLoginFormIsSubmittedWithTheUsersCredentialsAndItsHiddenFields() {
        Visit visit = visit(table(Map.of(Interaction.PUT_BID_AUTH, Interaction.PUT_BID)), 1, 1000);
        visit.arrived(PageRequest.get(Interaction.PUT_BID_AUTH, "/rubis/servlet/PutBidAuth?itemId=17"), LOGIN);
        PageRequest next = visit.plan();
        assertEquals(new PageRequest(Interaction.PUT_BID, "POST", "/rubis/servlet/PutBid",
                Map.of("itemId", "17", "nickname", "user7", "password", "password7")), next);
    }

    @Test
    void backShowsThePreviousPageAgain() {
        Visit visit = visit(table(Map.of(Interaction.VIEW_ITEM, Interaction.BACK)), 1, 1000);
        PageRequest listing = PageRequest.get(Interaction.SEARCH_ITEMS_IN_CATEGORY,
                "/rubis/servlet/SearchItemsByCategory?category=3");
        visit.arrived(listing, LISTING);
        visit.arrived(PageRequest.get(Interaction.VIEW_ITEM, "/rubis/servlet/ViewItem?itemId=17"), ITEM);
        PageRequest back = visit.plan();
        assertEquals(new PageRequest(Interaction.BACK, "GET", listing.path(), Map.of()), back);
    }

    @Test
    void aFormSubmissionIsNeverReplayedByBack() {
        Visit visit = visit(table(Map.of(Interaction.VIEW_ITEM, Interaction.BACK)), 1, 1000);
        visit.arrived(new PageRequest(Interaction.STORE_BID, "POST", "/rubis/servlet/StoreBid", Map.of()), ITEM);
        visit.arrived(PageRequest.get(Interaction.VIEW_ITEM, "/rubis/servlet/ViewItem?itemId=17"), ITEM);
        // Back is unreachable and is the column's only state: the user goes Home
        assertEquals(PageRequest.get(Interaction.HOME, "/rubis/index.html"), visit.plan());
    }

    @Test
    void aStateThePageOffersNoWayToIsNotDrawn() {
        // a "Sorry, no items" page has no item or paging links: of the listing's next states (itself, ViewItem,
        // Home, Browse, End) only the last three are left
        TransitionTable browsing = TransitionTable.mix("browsing");
        Set<Interaction> drawn = new HashSet<>();
        for (int seed = 0; seed < 200; seed++) {
            Visit visit = visit(browsing, seed, 1000);
            visit.arrived(PageRequest.get(Interaction.SEARCH_ITEMS_IN_CATEGORY,
                    "/rubis/servlet/SearchItemsByCategory?category=3"), "<p>Sorry, no items in this category.</p>");
            PageRequest next = visit.plan();
            drawn.add(next == null ? Interaction.END : next.interaction());
        }
        assertTrue(Set.of(Interaction.END, Interaction.HOME, Interaction.BROWSE).containsAll(drawn), drawn::toString);
        assertTrue(drawn.contains(Interaction.END), drawn::toString);
    }

    @Test
    void aSessionEndsAtTheTransitionCap() {
        Visit visit = visit(table(Map.of(Interaction.HOME, Interaction.BROWSE, Interaction.BROWSE, Interaction.HOME)),
                1, 3);
        for (int i = 0; i < 3; i++) {
            PageRequest next = visit.plan();
            visit.arrived(next, HOME_PAGE);
        }
        assertNull(visit.plan());
        assertNull(visit.plan());
        assertEquals(3, visit.transitions());
    }

    @Test
    void theImagesOfTheCurrentPageAreListed() {
        Visit visit = visit(TransitionTable.mix("browsing"), 1, 1000);
        visit.arrived(PageRequest.get(Interaction.VIEW_ITEM, "/rubis/servlet/ViewItem?itemId=17"), ITEM);
        assertEquals(java.util.List.of("/rubis/images/bid_now.jpg"), visit.images());
    }

    @Test
    void aRegistrationGetsAFreshNickname() {
        Visit visit = visit(table(Map.of(Interaction.REGISTER, Interaction.REGISTER_USER)), 1, 1000);
        visit.arrived(PageRequest.get(Interaction.REGISTER, "/rubis/register.html"),
                "<form method=post action=servlet/RegisterUser><input name=nickname><input name=password type=password>"
                        + "<input name=email><input name=region></form>");
        PageRequest next = visit.plan();
        assertEquals("/rubis/servlet/RegisterUser", next.path());
        Map<String, String> form = next.form();
        assertTrue(form.get("nickname").matches("load[0-9a-z]{1,13}"), form.toString());
        assertEquals("password7", form.get("password"));
        assertEquals("load7@example.test", form.get("email"));
        assertEquals("CA--San Francisco", form.get("region"));
    }

    @Test
    void aNewItemsPricesAreConsistent() {
        Visit visit = visit(table(Map.of(Interaction.SELL_ITEM_FORM, Interaction.REGISTER_ITEM)), 1, 1000);
        visit.arrived(PageRequest.get(Interaction.SELL_ITEM_FORM, "/rubis/servlet/SellItemForm?category=2"),
                "<form method=post action=/rubis/servlet/RegisterItem><input type=hidden name=category value=2>"
                        + "<input name=initialPrice><input name=reservePrice><input name=buyNow>"
                        + "<input name=quantity value=1></form>");
        Map<String, String> form = visit.plan().form();
        int initial = Integer.parseInt(form.get("initialPrice"));
        assertTrue(Integer.parseInt(form.get("reservePrice")) > initial, form.toString());
        assertTrue(Integer.parseInt(form.get("buyNow")) >= initial, form.toString());
        assertEquals("2", form.get("category"));
        assertEquals("1", form.get("quantity"));
    }

    private static Visit visit(TransitionTable table, long seed, int maxTransitions) {
        return new Visit(table, new Random(seed), "/rubis", 7, maxTransitions);
    }

    /** A table where each listed page always leads to one state; every other page ends the session. */
    static TransitionTable table(Map<Interaction, Interaction> always) {
        StringBuilder tsv = new StringBuilder("TO\\FROM");
        for (int from = 0; from < Interaction.PAGES; from++) {
            tsv.append('\t').append(Interaction.values()[from].title());
        }
        tsv.append("\tthink_ms\n");
        for (Interaction to : Interaction.values()) {
            tsv.append(to.title());
            for (int f = 0; f < Interaction.PAGES; f++) {
                Interaction from = Interaction.values()[f];
                Interaction target = always.getOrDefault(from, Interaction.END);
                tsv.append('\t').append(target == to ? "1" : "0");
            }
            tsv.append('\t').append(to.isPage() ? "7000" : "0").append('\n');
        }
        try {
            return TransitionTable.parse("test", new ByteArrayInputStream(tsv.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
