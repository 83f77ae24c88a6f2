package io.tlsadmit.rubis.web.comment;

import io.tlsadmit.rubis.web.Accounts;
import io.tlsadmit.rubis.web.HtmlPage;
import io.tlsadmit.rubis.web.Params;
import io.tlsadmit.rubis.web.RubisServlet;
import io.tlsadmit.rubis.web.Site;
import io.tlsadmit.rubis.web.item.Item;
import io.tlsadmit.rubis.web.item.Items;
import jakarta.servlet.annotation.WebServlet;
import java.sql.SQLException;

/** Interaction 19: after login, the form to rate and comment on a user about an item. */
@WebServlet(Site.SERVLETS + "PutComment")
public final class PutComment extends RubisServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected HtmlPage respond(Params params, Site site) throws SQLException {
        int itemId = params.id("itemId");
        int to = params.id("to");
        return database().read(connection -> {
            int userId = Accounts.authenticate(connection, params);
            String target = Accounts.nickname(connection, to);
            Item item = Items.require(connection, itemId);
            HtmlPage page = site.page("Comment on " + target).markup("<h2>Your comment about ").text(target)
                    .markup(" for ").link(site.servlet("ViewItem").with("itemId", itemId), item.name())
                    .markup("</h2>\n")
                    .form("StoreComment")
                    .hidden("to", to).hidden("from", userId).hidden("itemId", itemId)
                    .markup("<label>Rating <select name=\"rating\">\n");
            for (Rating rating : Rating.values()) {
                page.markup("<option value=\"").text(rating.points()).markup("\"")
                        .markup(rating == Rating.AVERAGE ? " selected" : "").markup(">").text(rating.label())
                        .markup("</option>\n");
            }
            return page.markup("</select></label><br>\n<label>Comment<br><textarea name=\"comment\" rows=\"10\""
                            + " cols=\"60\" maxlength=\"" + StoreComment.MAX_COMMENT + "\"></textarea></label><br>\n")
                    .endForm("Post this comment now!");
        });
    }
}
