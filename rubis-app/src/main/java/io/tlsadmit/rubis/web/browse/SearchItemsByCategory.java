package io.tlsadmit.rubis.web.browse;

import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;
import java.util.List;

/** Interaction 5: the open auctions of a category, a page at a time. */
@WebServlet(Site.SERVLETS + "SearchItemsByCategory")
public final class SearchItemsByCategory extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int categoryId = params.id("category");
        ItemListing listing = new ItemListing(params);
        return database().read(connection -> {
            Named category = Named.category(connection, categoryId);
            HtmlPage page = site.page("Items in " + category.name()).heading("Items in category " + category.name());
            return listing.render(connection, page, "FROM items i WHERE i.category = ?", List.of(categoryId),
                    () -> site.servlet("SearchItemsByCategory").with("category", categoryId));
        });
    }
}
