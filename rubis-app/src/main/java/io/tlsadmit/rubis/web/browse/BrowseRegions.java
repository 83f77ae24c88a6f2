package io.tlsadmit.rubis.web.browse;

import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;

/** Interaction 6: every region, each linking to the categories of that region. */
@WebServlet(Site.SERVLETS + "BrowseRegions")
public final class BrowseRegions extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        return database().read(connection -> {
            HtmlPage page = site.page("Regions").heading("Browse all regions").markup("<ul>\n");
            for (Named region : Named.regions(connection)) {
                page.markup("<li>").link(site.servlet("BrowseCategoriesInRegion").with("region", region.id()),
                        region.name()).markup("</li>\n");
            }
            return page.markup("</ul>\n");
        });
    }
}
