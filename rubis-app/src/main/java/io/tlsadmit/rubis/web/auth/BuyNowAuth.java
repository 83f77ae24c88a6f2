package io.tlsadmit.rubis.web.auth;

import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;

/** Interaction 12: the login form in front of BuyNow. Touches no database. */
@WebServlet(Site.SERVLETS + "BuyNowAuth")
public final class BuyNowAuth extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) {
        int itemId = params.id("itemId");
        return site.page("Log in to buy").heading("You must log in to buy this item")
                .form("BuyNow").hidden("itemId", itemId).credentials().endForm("Log in");
    }
}
