package io.tlsadmit.rubis.web.auth;

import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;

/** Interaction 15: the login form in front of PutBid. Touches no database. */
@WebServlet(Site.SERVLETS + "PutBidAuth")
public final class PutBidAuth extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) {
        int itemId = params.id("itemId");
        return site.page("Log in to bid").heading("You must log in to bid on this item")
                .form("PutBid").hidden("itemId", itemId).credentials().endForm("Log in");
    }
}
