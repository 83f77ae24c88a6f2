package io.tlsadmit.rubis.web.item;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;

/** Interaction 11: an item's bids, newest first, each bidder linked. */
@WebServlet(Site.SERVLETS + "ViewBidHistory")
public final class ViewBidHistory extends RubisServlet {

    private static final long serialVersionUID = 1L;

    private record BidRow(int userId, String nickname, BigDecimal amount, int qty, Timestamp date) {
    }

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int itemId = params.id("itemId");
        return database().read(connection -> {
            Item item = Items.require(connection, itemId);
            HtmlPage page = site.page("Bid history of " + item.name()).markup("<h2>Bid history of ")
                    .link(site.servlet("ViewItem").with("itemId", item.id()), item.name()).markup("</h2>\n");
            List<BidRow> bids = Query.sql(connection, "SELECT b.user_id, u.nickname, b.bid, b.qty, b.date"
                            + " FROM bids b LEFT JOIN users u ON u.id = b.user_id"
                            + " WHERE b.item_id = ? ORDER BY b.date DESC, b.id DESC")
                    .bind(itemId)
                    .list(row -> new BidRow(row.getInt(1), row.getString(2), row.getBigDecimal(3), row.getInt(4),
                            row.getTimestamp(5)));
            if (bids.isEmpty()) {
                return page.paragraph("There are no bids for this item yet.");
            }
            page.markup("<table>\n<tr><th>Bidder</th><th>Bid</th><th>Quantity</th><th>Date</th></tr>\n");
            for (BidRow bid : bids) {
                page.markup("<tr class=\"bid\"><td>")
                        .link(site.servlet("ViewUserInfo").with("userId", bid.userId()),
                                bid.nickname() == null ? "user " + bid.userId() : bid.nickname())
                        .markup("</td><td>").money(bid.amount())
                        .markup("</td><td>").text(bid.qty())
                        .markup("</td><td>").date(bid.date()).markup("</td></tr>\n");
            }
            return page.markup("</table>\n");
        });
    }
}
