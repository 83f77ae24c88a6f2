package io.tlsadmit.rubis.web.buy;

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
import java.time.Instant;

/** Interaction 13: after login, the item and the form to buy it at its buy-now price. */
@WebServlet(Site.SERVLETS + "BuyNow")
public final class BuyNow extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int itemId = params.id("itemId");
        return database().read(connection -> {
            int userId = Accounts.authenticate(connection, params);
            Item item = Items.require(connection, itemId);
            if (!item.isOpen(Instant.now())) {
                throw Rejection.conflict("This item is no longer for sale.");
            }
            String seller = Accounts.nickname(connection, item.sellerId());
            return site.page("Buy " + item.name()).heading("Buy " + item.name() + " now")
                    .markup("<table>\n<tr><th>Seller</th><td>")
                    .link(site.servlet("ViewUserInfo").with("userId", item.sellerId()), seller)
                    .markup("</td></tr>\n<tr><th>Buy now price</th><td>").money(item.buyNow())
                    .markup("</td></tr>\n<tr><th>Quantity available</th><td>").text(item.quantity())
                    .markup("</td></tr>\n</table>\n")
                    .form("StoreBuyNow")
                    .hidden("itemId", item.id()).hidden("userId", userId).hidden("maxQty", item.quantity())
                    .input("Quantity", "text", "qty", 1)
                    .endForm("Buy now!");
        });
    }
}
