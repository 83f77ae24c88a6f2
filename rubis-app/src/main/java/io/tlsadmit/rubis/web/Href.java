package io.tlsadmit.rubis.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** A link target inside the site with URL-encoded query parameters. Rendered escaped by {@link HtmlPage}. */
public final class Href {

    private final StringBuilder url;
    private boolean hasQuery;

    private Href(String path) {
        this.url = new StringBuilder(path);
    }

    static Href path(String path) {
        return new Href(path);
    }

    public Href with(String name, Object value) {
        url.append(hasQuery ? '&' : '?')
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8))
                .append('=')
                .append(URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8));
        hasQuery = true;
        return this;
    }

    @Override
    public String toString() {
        return url.toString();
    }
}
