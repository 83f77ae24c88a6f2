package io.tlsadmit.rubis.web.sell;

import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.browse.Named;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;

/** Interaction 22: after login, the categories to sell in, each linking to the item form. */
@WebServlet(Site.SERVLETS + "SelectCategoryToSellItem")
public final class SelectCategoryToSellItem extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        return database().read(connection -> {
            int userId = Accounts.authenticate(connection, params);
            HtmlPage page = site.page("Sell an item").heading("Select the category of your item").markup("<ul>\n");
            for (Named category : Named.categories(connection)) {
                page.markup("<li>").link(site.servlet("SellItemForm").with("category", category.id())
                        .with("user", userId), category.name()).markup("</li>\n");
            }
            return page.markup("</ul>\n");
        });
    }
}
