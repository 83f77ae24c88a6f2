package io.tlsadmit.rubis.web;

/** Where the site is mounted; makes links and pages that point inside it. */
public final class Site {

    public static final String SERVLETS = "/servlet/";

    private final String contextPath;

    public Site(String contextPath) {
        this.contextPath = contextPath;
    }

    /** A link to one of the interactions, e.g. {@code servlet("ViewItem").with("itemId", 7)}. */
    public Href servlet(String interaction) {
        return Href.path(contextPath + SERVLETS + interaction);
    }

    public String resource(String path) {
        return contextPath + "/" + path;
    }

    public HtmlPage page(String title) {
        return new HtmlPage(this, title);
    }
}
