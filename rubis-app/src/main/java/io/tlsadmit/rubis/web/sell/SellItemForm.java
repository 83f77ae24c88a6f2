package io.tlsadmit.rubis.web.sell;

import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.browse.Named;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;

/** Interaction 23: the form describing an item to sell in a category. */
@WebServlet(Site.SERVLETS + "SellItemForm")
public final class SellItemForm extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int categoryId = params.id("category");
        int userId = params.id("user");
        Named category = database().read(connection -> Named.category(connection, categoryId));
        HtmlPage page = site.page("Sell an item").heading("Sell an item in " + category.name())
                .form("RegisterItem")
                .hidden("category", categoryId).hidden("userId", userId)
                .input("Name", "text", "name", "")
                .markup("<label>Description<br><textarea name=\"description\" rows=\"10\" cols=\"60\" maxlength=\""
                        + RegisterItem.MAX_DESCRIPTION + "\"></textarea></label><br>\n")
                .input("Initial price", "text", "initialPrice", "")
                .input("Reserve price (optional)", "text", "reservePrice", "")
                .input("Buy now price (optional)", "text", "buyNow", "")
                .input("Quantity", "text", "quantity", 1)
                .markup("<label>Duration <select name=\"duration\">\n");
        for (int days = RegisterItem.MIN_DAYS; days <= RegisterItem.MAX_DAYS; days++) {
            page.markup("<option value=\"" + days + "\">" + days + (days == 1 ? " day" : " days") + "</option>\n");
        }
        return page.markup("</select></label><br>\n").endForm("Register item");
    }
}
