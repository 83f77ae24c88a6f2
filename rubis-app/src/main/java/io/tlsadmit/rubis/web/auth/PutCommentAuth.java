package io.tlsadmit.rubis.web.auth;

import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import jakarta.servlet.annotation.WebServlet;

/** Interaction 18: the login form in front of PutComment, carrying the item and the user commented on. */
@WebServlet(Site.SERVLETS + "PutCommentAuth")
public final class PutCommentAuth extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) {
        int itemId = params.id("itemId");
        int to = params.id("to");
        return site.page("Log in to comment").heading("You must log in to leave a comment")
                .form("PutComment").hidden("itemId", itemId).hidden("to", to).credentials().endForm("Log in");
    }
}
