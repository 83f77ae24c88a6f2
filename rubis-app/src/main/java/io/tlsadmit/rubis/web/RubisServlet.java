package io.tlsadmit.rubis.web;

import io.tlsadmit.rubis.db.Database;
import jakarta.servlet.ServletException;
import jakarta.servlet.UnavailableException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One RUBiS interaction. Subclasses turn a request into a page; this class owns what every interaction shares: GET
 * and POST alike (the original client sends both), UTF-8, and error pages that carry the word ERROR (the load client
 * counts them) and never an exception trace.
 */
public abstract class RubisServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(RubisServlet.class.getName());

    /** The servlet context attribute under which the bootstrap leaves the {@link Database}. */
    public static final String DATABASE = Database.class.getName();

    private transient Database database;

    @Override
    public void init() throws ServletException {
        Object attribute = getServletContext().getAttribute(DATABASE);
        if (!(attribute instanceof Database db)) {
            throw new UnavailableException("the RUBiS database was not set up; see the start-up log");
        }
        this.database = db;
    }

    protected Database database() {
        return database;
    }

    /** Builds the page for one request. Throw {@link Rejection} to refuse it. */
    protected abstract HtmlPage respond(Params params, Site site) throws SQLException;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("POST") && !method.equals("HEAD")) {
            response.setHeader("Allow", "GET, HEAD, POST");
            send(response, errorPage(new Site(request.getContextPath()), 405, "Method not allowed."), method);
            return;
        }
        Site site = new Site(request.getContextPath());
        HtmlPage page;
        try {
            page = respond(new Params(request), site);
        } catch (Rejection rejection) {
            page = errorPage(site, rejection.status(), rejection.getMessage());
        } catch (SQLException e) {
            LOG.log(Level.SEVERE, getServletName() + " failed on the database", e);
            page = errorPage(site, 503, "The database is not available; please try again later.");
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, getServletName() + " failed", e);
            page = errorPage(site, 500, "Something went wrong on our side.");
        }
        send(response, page, method);
    }

    private static HtmlPage errorPage(Site site, int status, String message) {
        return site.page("Error").status(status).markup("<h2>ERROR</h2>\n").paragraph(message);
    }

    private static void send(HttpServletResponse response, HtmlPage page, String method) throws IOException {
        byte[] body = page.render().getBytes(StandardCharsets.UTF_8);
        response.setStatus(page.status());
        response.setContentType("text/html;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(body.length);
        if (!method.equals("HEAD")) {
            response.getOutputStream().write(body);
        }
    }
}
