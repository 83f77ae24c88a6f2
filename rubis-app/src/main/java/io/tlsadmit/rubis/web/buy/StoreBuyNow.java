package io.tlsadmit.rubis.web.buy;

import io.tlsadmit.rubis.db.Query;
import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.Rejection;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.item.Item;
import io.tlsadmit.rubis.web.item.Items;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Interaction 14: one transaction lowers the quantity (ending the auction when none is left) and records the
 * purchase. The quantity check is part of the UPDATE, so two buyers can never take the last unit twice.
 */
@WebServlet(Site.SERVLETS + "StoreBuyNow")
public final class StoreBuyNow extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int itemId = params.id("itemId");
        int userId = params.id("userId");
        int maxQty = params.id("maxQty");
        int qty = params.id("qty");
        if (qty > maxQty) {
            throw Rejection.badRequest("You cannot buy more than " + maxQty + " items.");
        }
        Timestamp now = Timestamp.from(Instant.now());
        Item item = database().transaction(connection -> {
            Accounts.requireUser(connection, userId);
            // end_date is assigned first: MariaDB evaluates SET left to right, so it must still see the old quantity
            int updated = Query.sql(connection, "UPDATE items SET end_date = CASE WHEN quantity = ? THEN ?"
                            + " ELSE end_date END, quantity = quantity - ?"
                            + " WHERE id = ? AND quantity >= ? AND end_date >= ?")
                    .bind(qty, now, qty, itemId, qty, now)
                    .update();
            if (updated == 0) {
                Item current = Items.require(connection, itemId);
                throw Rejection.conflict(current.isOpen(now.toInstant())
                        ? "Only " + current.quantity() + " of this item are left."
                        : "This item is no longer for sale.");
            }
            Query.sql(connection, "INSERT INTO buy_now (buyer_id, item_id, qty, date) VALUES (?, ?, ?, ?)")
                    .bind(userId, itemId, qty, now)
                    .update();
            return Items.require(connection, itemId);
        });
        return site.page("Purchase stored").heading("You bought " + qty + " of " + item.name())
                .markup("<p>").link(site.servlet("ViewItem").with("itemId", itemId), item.name())
                .markup(" now has ").text(item.quantity()).markup(" left.</p>\n");
    }
}
