package io.tlsadmit.rubis.web.item;

import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Instant;

/** Interaction 9: one auction with its price, seller and the links to bid, buy, comment and see the bids. */
@WebServlet(Site.SERVLETS + "ViewItem")
public final class ViewItem extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int itemId = params.id("itemId");
        return database().read(connection -> {
            Item item = Items.require(connection, itemId);
            String seller = Accounts.nickname(connection, item.sellerId());
            BigDecimal price = Items.currentPrice(connection, item);
            boolean open = item.isOpen(Instant.now());

            HtmlPage page = site.page(item.name()).heading(item.name());
            page.markup("<table>\n<tr><th>Current price</th><td>").money(price).markup("</td></tr>\n");
            if (item.hasReserve()) {
                page.markup("<tr><th>Reserve price</th><td>")
                        .text(item.maxBid().compareTo(item.reservePrice()) >= 0 ? "met" : "not met")
                        .markup("</td></tr>\n");
            }
            if (item.hasBuyNow()) {
                page.markup("<tr><th>Buy now price</th><td>").money(item.buyNow()).markup("</td></tr>\n");
            }
            page.markup("<tr><th>Quantity</th><td>").text(item.quantity()).markup("</td></tr>\n")
                    .markup("<tr><th>First bid</th><td>").money(item.initialPrice()).markup("</td></tr>\n")
                    .markup("<tr><th>Number of bids</th><td>").text(item.nbOfBids()).markup(" (")
                    .link(site.servlet("ViewBidHistory").with("itemId", item.id()), "bid history")
                    .markup(")</td></tr>\n")
                    .markup("<tr><th>Seller</th><td>")
                    .link(site.servlet("ViewUserInfo").with("userId", item.sellerId()), seller)
                    .markup(" (").link(site.servlet("PutCommentAuth").with("to", item.sellerId())
                            .with("itemId", item.id()), "leave a comment about this seller")
                    .markup(")</td></tr>\n")
                    .markup("<tr><th>Started</th><td>").date(item.start()).markup("</td></tr>\n")
                    .markup("<tr><th>Ends</th><td>").date(item.end()).markup("</td></tr>\n</table>\n");
            if (open) {
                page.markup("<p>");
                page.imageLink(site.servlet("PutBidAuth").with("itemId", item.id()), "bid_now.jpg", "Bid now", 90, 32);
                if (item.hasBuyNow()) {
                    page.markup(" ").imageLink(site.servlet("BuyNowAuth").with("itemId", item.id()),
                            "buy_it_now.jpg", "Buy it now", 120, 40);
                }
                page.markup("</p>\n");
            } else {
                page.paragraph("This auction has ended.");
            }
            return page.markup("<h3>Description</h3>\n").paragraph(item.description());
        });
    }
}
