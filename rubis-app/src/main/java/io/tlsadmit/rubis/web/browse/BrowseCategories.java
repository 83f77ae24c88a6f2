package io.tlsadmit.rubis.web.browse;

import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;

/** Interaction 4: every category, each linking to its open auctions. */
@WebServlet(Site.SERVLETS + "BrowseCategories")
public final class BrowseCategories extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        return database().read(connection -> {
            HtmlPage page = site.page("Categories").heading("Browse all categories").markup("<ul>\n");
            for (Named category : Named.categories(connection)) {
                page.markup("<li>").link(site.servlet("SearchItemsByCategory").with("category", category.id()),
                        category.name()).markup("</li>\n");
            }
            return page.markup("</ul>\n");
        });
    }
}
