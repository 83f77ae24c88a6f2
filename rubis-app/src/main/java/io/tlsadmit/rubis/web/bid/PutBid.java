package io.tlsadmit.rubis.web.bid;

import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.Rejection;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.item.Item;
import io.tlsadmit.rubis.web.item.Items;
import jakarta.servlet.annotation.WebServlet;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Instant;

/** Interaction 16: after login, the item's state and the bid form, carrying the minimum bid and quantity. */
@WebServlet(Site.SERVLETS + "PutBid")
public final class PutBid extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int itemId = params.id("itemId");
        return database().read(connection -> {
            int userId = Accounts.authenticate(connection, params);
            Item item = Items.require(connection, itemId);
            if (!item.isOpen(Instant.now())) {
                throw Rejection.conflict("The auction of this item has ended.");
            }
            String seller = Accounts.nickname(connection, item.sellerId());
            BigDecimal minimum = item.minimumBid();
            return site.page("Bid on " + item.name()).heading("Bid on " + item.name())
                    .markup("<table>\n<tr><th>Seller</th><td>")
                    .link(site.servlet("ViewUserInfo").with("userId", item.sellerId()), seller)
                    .markup("</td></tr>\n<tr><th>Current bid</th><td>").money(item.maxBid().max(item.initialPrice()))
                    .markup("</td></tr>\n<tr><th>Number of bids</th><td>").text(item.nbOfBids())
                    .markup("</td></tr>\n<tr><th>Quantity</th><td>").text(item.quantity())
                    .markup("</td></tr>\n<tr><th>Minimum bid</th><td>").money(minimum)
                    .markup("</td></tr>\n</table>\n")
                    .form("StoreBid")
                    .hidden("itemId", item.id()).hidden("userId", userId)
                    .hidden("minBid", minimum.toPlainString()).hidden("maxQty", item.quantity())
                    .input("Your bid", "text", "bid", minimum.toPlainString())
                    .input("Your maximum bid", "text", "maxBid", minimum.toPlainString())
                    .input("Quantity", "text", "qty", 1)
                    .endForm("Bid now!");
        });
    }
}
