package io.tlsadmit.rubis.web.browse;

import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;

/** Interaction 7: the categories again, each linking to the open auctions of sellers in one region. */
@WebServlet(Site.SERVLETS + "BrowseCategoriesInRegion")
public final class BrowseCategoriesInRegion extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int regionId = params.id("region");
        return database().read(connection -> {
            Named region = Named.region(connection, regionId);
            HtmlPage page = site.page("Categories in " + region.name())
                    .heading("Categories in " + region.name()).markup("<ul>\n");
            for (Named category : Named.categories(connection)) {
                page.markup("<li>").link(site.servlet("SearchItemsByRegion").with("category", category.id())
                        .with("region", region.id()), category.name()).markup("</li>\n");
            }
            return page.markup("</ul>\n");
        });
    }
}
