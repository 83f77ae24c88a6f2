package io.tlsadmit.rubis.web;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Timestamp;
import java.time.format.DateTimeFormatter;

/**
 * A server-rendered page. Markup goes in through {@link #markup}, which takes only constants written in this code
 * base; every value from the database or the request goes in through a method that escapes it.
 */
public final class HtmlPage {

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final Site site;
    private final StringBuilder out = new StringBuilder(4096);
    private int status = 200;

    HtmlPage(Site site, String title) {
        this.site = site;
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>RUBiS: ")
                .append(Html.escape(title))
                .append("</title>\n<style>body{font-family:sans-serif;margin:1em 2em}"
                        + "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left}"
                        + "nav a{margin-right:1em}</style>\n</head>\n<body>\n<header>\n<a href=\"")
                .append(Html.escape(site.resource("index.html")))
                .append("\"><img src=\"").append(Html.escape(site.resource("images/logo.jpg")))
                .append("\" alt=\"RUBiS\" width=\"400\" height=\"120\"></a>\n<nav>");
        navLink("index.html", "Home");
        navLink("register.html", "Register");
        navLink("browse.html", "Browse");
        navLink("sell.html", "Sell");
        navLink("about_me.html", "About me");
        out.append("</nav>\n</header>\n<main>\n");
    }

    private void navLink(String path, String label) {
        out.append("<a href=\"").append(Html.escape(site.resource(path))).append("\">").append(label).append("</a>");
    }

    public Site site() {
        return site;
    }

    public int status() {
        return status;
    }

    public HtmlPage status(int status) {
        this.status = status;
        return this;
    }

    /** Trusted markup: a constant of this code base, never a value. */
    public HtmlPage markup(String trusted) {
        out.append(trusted);
        return this;
    }

    public HtmlPage text(Object value) {
        out.append(Html.escape(String.valueOf(value)));
        return this;
    }

    public HtmlPage heading(String text) {
        return markup("<h2>").text(text).markup("</h2>\n");
    }

    public HtmlPage paragraph(String text) {
        return markup("<p>").text(text).markup("</p>\n");
    }

    public HtmlPage money(BigDecimal amount) {
        return text(amount.setScale(2, RoundingMode.HALF_EVEN).toPlainString());
    }

    public HtmlPage date(Timestamp when) {
        return text(when.toLocalDateTime().format(DATE));
    }

    public HtmlPage link(Href href, Object label) {
        return markup("<a href=\"").text(href).markup("\">").text(label).markup("</a>");
    }

    /** A link drawn as one of the site's buttons, e.g. "bid now". */
    public HtmlPage imageLink(Href href, String image, String alt, int width, int height) {
        return markup("<a href=\"").text(href).markup("\"><img src=\"").text(site.resource("images/" + image))
                .markup("\" alt=\"").text(alt).markup("\" width=\"" + width + "\" height=\"" + height + "\"></a>");
    }

    /** Opens a POST form to an interaction; close with {@link #endForm}. */
    public HtmlPage form(String interaction) {
        return markup("<form method=\"post\" action=\"").text(site.servlet(interaction)).markup("\">\n");
    }

    public HtmlPage hidden(String name, Object value) {
        return markup("<input type=\"hidden\" name=\"").text(name).markup("\" value=\"").text(value)
                .markup("\">\n");
    }

    public HtmlPage input(String label, String type, String name, Object value) {
        return markup("<label>").text(label).markup(" <input type=\"").text(type).markup("\" name=\"").text(name)
                .markup("\" value=\"").text(value).markup("\"></label><br>\n");
    }

    public HtmlPage endForm(String submitLabel) {
        return markup("<input type=\"submit\" value=\"").text(submitLabel).markup("\">\n</form>\n");
    }

    /** The nickname and password fields of the login forms. */
    public HtmlPage credentials() {
        return input("Nickname", "text", "nickname", "").input("Password", "password", "password", "");
    }

    /** Renders the page; the caller sends it with {@link #status()}. */
    public String render() {
        return out + "</main>\n</body>\n</html>\n";
    }
}
