package io.tlsadmit.rubis.web.browse;

import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;
import java.util.List;

/** Interaction 8: the open auctions of a category whose seller lives in a region, a page at a time. */
@WebServlet(Site.SERVLETS + "SearchItemsByRegion")
public final class SearchItemsByRegion extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int categoryId = params.id("category");
        int regionId = params.id("region");
        ItemListing listing = new ItemListing(params);
        return database().read(connection -> {
            Named category = Named.category(connection, categoryId);
            Named region = Named.region(connection, regionId);
            HtmlPage page = site.page("Items in " + category.name())
                    .heading("Items in category " + category.name() + " in region " + region.name());
            return listing.render(connection, page,
                    "FROM items i JOIN users u ON u.id = i.seller WHERE u.region = ? AND i.category = ?",
                    List.of(regionId, categoryId),
                    () -> site.servlet("SearchItemsByRegion").with("category", categoryId).with("region", regionId));
        });
    }
}
