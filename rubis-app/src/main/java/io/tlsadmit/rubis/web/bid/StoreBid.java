package io.tlsadmit.rubis.web.bid;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.Rejection;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.item.Items;
import jakarta.servlet.annotation.WebServlet;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Interaction 17: records a bid. The item's bid count and best bid change in the same statement that checks the
 * auction is still open, so concurrent bids never lose an update (the original read the count, then wrote it + 1).
 */
@WebServlet(Site.SERVLETS + "StoreBid")
public final class StoreBid extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int itemId = params.id("itemId");
        int userId = params.id("userId");
        BigDecimal minBid = params.money("minBid");
        BigDecimal bid = params.money("bid");
        BigDecimal maxBid = params.money("maxBid");
        int maxQty = params.id("maxQty");
        int qty = params.id("qty");
        if (qty > maxQty) {
            throw Rejection.badRequest("You cannot bid on more than " + maxQty + " items.");
        }
        if (bid.compareTo(minBid) < 0) {
            throw Rejection.badRequest("Your bid of " + bid.toPlainString() + " is below the minimum bid of "
                    + minBid.toPlainString() + ".");
        }
        if (maxBid.compareTo(bid) < 0) {
            throw Rejection.badRequest("Your maximum bid of " + maxBid.toPlainString() + " is below your bid of "
                    + bid.toPlainString() + ".");
        }
        Timestamp now = Timestamp.from(Instant.now());
        String itemName = database().transaction(connection -> {
            Accounts.requireUser(connection, userId);
            int updated = Query.sql(connection, "UPDATE items SET max_bid = GREATEST(max_bid, ?),"
                            + " nb_of_bids = nb_of_bids + 1"
                            + " WHERE id = ? AND end_date >= ? AND quantity >= ? AND initial_price <= ?")
                    .bind(bid, itemId, now, qty, bid)
                    .update();
            if (updated == 0) {
                var item = Items.require(connection, itemId);
                throw Rejection.conflict(item.isOpen(now.toInstant())
                        ? "Your bid is below the first bid or asks for more items than are offered."
                        : "The auction of this item has ended.");
            }
            Query.sql(connection, "INSERT INTO bids (user_id, item_id, qty, bid, max_bid, date)"
                            + " VALUES (?, ?, ?, ?, ?, ?)")
                    .bind(userId, itemId, qty, bid, maxBid, now)
                    .update();
            return Items.require(connection, itemId).name();
        });
        return site.page("Bid stored").heading("Your bid has been stored")
                .markup("<p>You bid ").money(bid).markup(" on ")
                .link(site.servlet("ViewItem").with("itemId", itemId), itemName).markup(".</p>\n");
    }
}
