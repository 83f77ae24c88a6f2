package io.tlsadmit.loadtests.rubis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PageContentTest {

    private static final String LISTING = """
            <header><a href="/rubis/index.html"><img src="/rubis/images/logo.jpg" alt="RUBiS"></a></header>
            <table>
            <tr><td><a href="/rubis/servlet/ViewItem?itemId=17">Lamp &amp; shade</a></td>
                <td><a href="/rubis/servlet/PutBidAuth?itemId=17"><img src="/rubis/images/bid_now.jpg"></a></td></tr>
            <tr><td><a href="/rubis/servlet/ViewItem?itemId=23">Chair</a></td>
                <td><a href="/rubis/servlet/PutBidAuth?itemId=23"><img src="/rubis/images/bid_now.jpg"></a></td></tr>
            </table>
            <a href="/rubis/servlet/SearchItemsByCategory?category=3&amp;page=1&amp;nbOfItems=20">Next page</a>
            """;

    @Test
    void linksAreFoundByTheirServletAndUnescaped() {
        PageContent page = PageContent.parse("/rubis/servlet/SearchItemsByCategory?category=3", LISTING);
        assertEquals(List.of("/rubis/servlet/ViewItem?itemId=17", "/rubis/servlet/ViewItem?itemId=23"),
                page.linksTo("ViewItem"));
        assertEquals(List.of("/rubis/servlet/SearchItemsByCategory?category=3&page=1&nbOfItems=20"),
                page.linksTo("SearchItemsByCategory"));
        assertEquals(List.of(), page.linksTo("ViewUserInfo"));
    }

    @Test
    void eachImageIsLoadedOncePerPage() {
        PageContent page = PageContent.parse("/rubis/servlet/SearchItemsByCategory", LISTING);
        assertEquals(List.of("/rubis/images/logo.jpg", "/rubis/images/bid_now.jpg"), page.images());
    }

    @Test
    void relativeReferencesResolveAgainstThePage() {
        PageContent page = PageContent.parse("/rubis/browse.html",
                "<a href='servlet/BrowseRegions'>x</a><img src=images/logo.jpg><a href=\"https://elsewhere.test/\">y</a>"
                        + "<a href=\"#top\">z</a>");
        assertEquals(List.of("/rubis/servlet/BrowseRegions"), page.links());
        assertEquals(List.of("/rubis/images/logo.jpg"), page.images());
    }

    @Test
    void aFormKeepsItsHiddenAndPrefilledFieldsAndTheFirstOptionOfASelect() {
        String html = """
                <form method="post" action="/rubis/servlet/StoreBid">
                <input type="hidden" name="itemId" value="17">
                <input type="hidden" name="minBid" value="12.50">
                <label>Your bid <input type="text" name="bid" value="12.50"></label>
                <select name="rating"><option value="5">Excellent</option><option value="3">Good</option></select>
                <select name="duration"><option value="1">1</option><option value="7" selected>7</option></select>
                <textarea name="comment">Nice &lt;seller&gt;</textarea>
                <input type="submit" value="Bid">
                </form>
                """;
        PageContent.Form form = PageContent.parse("/rubis/servlet/PutBid", html).formTo("StoreBid");
        assertEquals("POST", form.method());
        assertEquals("/rubis/servlet/StoreBid", form.action());
        assertEquals(Map.of("itemId", "17", "minBid", "12.50", "bid", "12.50", "rating", "5", "duration", "7",
                "comment", "Nice <seller>"), form.fields());
        assertNull(PageContent.parse("/rubis/servlet/PutBid", html).formTo("StoreComment"));
    }

    @Test
    void errorPagesAreRecognisedByTheWordError() {
        assertTrue(PageContent.parse("/rubis/servlet/ViewItem", "<h2>ERROR</h2><p>No such item.</p>").isErrorPage());
        assertFalse(PageContent.parse("/rubis/servlet/ViewItem", LISTING).isErrorPage());
    }

    @Test
    void characterReferencesAndStrayAmpersandsAreHandled() {
        assertEquals("a&b <c> \"d\" 'e' ' &unknown; & end", PageContent.unescape(
                "a&amp;b &lt;c&gt; &quot;d&quot; &#39;e&#x27; &#39; &unknown; & end"));
    }
}
