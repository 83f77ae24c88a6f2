package io.tlsadmit.loadtests.rubis;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a client needs from a RUBiS page: the links it can follow, the images a browser would load, and its
 * forms. A tolerant scanner over tags and attributes, enough for the server-rendered pages of rubis-app (not a
 * general HTML parser). Every URL comes back as a path resolved against the page's own path.
 */
public final class PageContent {

    private static final Pattern TAG = Pattern.compile(
            "<(a|img|form|/form|input|select|/select|option|textarea)\\b([^>]*)>", Pattern.CASE_INSENSITIVE);
    private static final Pattern ATTRIBUTE = Pattern.compile(
            "([a-zA-Z][\\w:-]*)\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s\"'>]+))");
    private static final Pattern TEXTAREA_BODY = Pattern.compile("([^<]*)</textarea>", Pattern.CASE_INSENSITIVE);

    private final List<String> links;
    private final List<String> images;
    private final List<Form> forms;
    private final boolean error;

    private PageContent(List<String> links, List<String> images, List<Form> forms, boolean error) {
        this.links = links;
        this.images = images;
        this.forms = forms;
        this.error = error;
    }

    /** A form: where it goes, how, and its fields with their initial values (hidden ones included). */
    public record Form(String action, String method, Map<String, String> fields) {
    }

    public static PageContent parse(String pagePath, String html) {
        List<String> links = new ArrayList<>();
        Set<String> images = new LinkedHashSet<>();
        List<Form> forms = new ArrayList<>();
        String formAction = null;
        String formMethod = null;
        Map<String, String> fields = null;
        String select = null;
        Matcher tag = TAG.matcher(html);
        while (tag.find()) {
            String name = tag.group(1).toLowerCase(java.util.Locale.ROOT);
            Map<String, String> attributes = attributes(tag.group(2));
            switch (name) {
                case "a" -> {
                    String href = resolve(pagePath, attributes.get("href"));
                    if (href != null) {
                        links.add(href);
                    }
                }
                case "img" -> {
                    String src = resolve(pagePath, attributes.get("src"));
                    if (src != null) {
                        images.add(src);
                    }
                }
                case "form" -> {
                    formAction = resolve(pagePath, attributes.getOrDefault("action", ""));
                    formMethod = attributes.getOrDefault("method", "get").toUpperCase(java.util.Locale.ROOT);
                    fields = new LinkedHashMap<>();
                }
                case "/form" -> {
                    if (fields != null && formAction != null) {
                        forms.add(new Form(formAction, formMethod, Map.copyOf(fields)));
                    }
                    fields = null;
                }
                case "input" -> {
                    String field = attributes.get("name");
                    String type = attributes.getOrDefault("type", "text").toLowerCase(java.util.Locale.ROOT);
                    if (fields != null && field != null && !type.equals("submit") && !type.equals("button")) {
                        fields.put(field, attributes.getOrDefault("value", ""));
                    }
                }
                case "select" -> select = attributes.get("name");
                case "/select" -> select = null;
                case "option" -> {
                    // the first option is what a browser submits unless another is marked selected
                    if (fields != null && select != null && (!fields.containsKey(select)
                            || attributes.containsKey("selected"))) {
                        fields.put(select, attributes.getOrDefault("value", ""));
                    }
                }
                case "textarea" -> {
                    String field = attributes.get("name");
                    Matcher body = TEXTAREA_BODY.matcher(html).region(tag.end(), html.length());
                    if (fields != null && field != null) {
                        fields.put(field, body.lookingAt() ? unescape(body.group(1)) : "");
                    }
                }
                default -> throw new AssertionError(name);
            }
        }
        return new PageContent(List.copyOf(links), List.copyOf(images), List.copyOf(forms),
                html.contains("ERROR"));
    }

    private static Map<String, String> attributes(String text) {
        Map<String, String> attributes = new LinkedHashMap<>();
        Matcher attribute = ATTRIBUTE.matcher(text);
        while (attribute.find()) {
            String value = attribute.group(2) != null ? attribute.group(2)
                    : attribute.group(3) != null ? attribute.group(3) : attribute.group(4);
            attributes.put(attribute.group(1).toLowerCase(java.util.Locale.ROOT), unescape(value));
        }
        // boolean attributes such as <option selected>
        for (String word : ATTRIBUTE.matcher(text).replaceAll(" ").trim().split("\\s+")) {
            if (word.matches("[a-zA-Z]+")) {
                attributes.putIfAbsent(word.toLowerCase(java.util.Locale.ROOT), "");
            }
        }
        return attributes;
    }

    /** Path and query of a same-site URL, or null for other sites, fragments and script links. */
    static String resolve(String pagePath, String reference) {
        if (reference == null || reference.isEmpty() || reference.startsWith("#")) {
            return null;
        }
        try {
            URI uri = URI.create(pagePath).resolve(reference.strip());
            if (uri.getScheme() != null && !uri.getScheme().startsWith("http")) {
                return null;
            }
            if (uri.getHost() != null && !URI.create(pagePath).isAbsolute()) {
                return null; // another site: a browser would leave ours
            }
            String path = uri.getRawPath();
            return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String unescape(String text) {
        if (text.indexOf('&') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int end = c == '&' ? text.indexOf(';', i) : -1;
            if (end < 0 || end - i > 10) {
                out.append(c);
                continue;
            }
            String entity = text.substring(i + 1, end);
            String replacement = switch (entity) {
                case "amp" -> "&";
                case "lt" -> "<";
                case "gt" -> ">";
                case "quot" -> "\"";
                case "apos" -> "'";
                default -> numeric(entity);
            };
            if (replacement == null) {
                out.append(c);
            } else {
                out.append(replacement);
                i = end;
            }
        }
        return out.toString();
    }

    private static String numeric(String entity) {
        try {
            if (entity.startsWith("#x") || entity.startsWith("#X")) {
                return Character.toString(Integer.parseInt(entity.substring(2), 16));
            }
            if (entity.startsWith("#")) {
                return Character.toString(Integer.parseInt(entity.substring(1)));
            }
        } catch (IllegalArgumentException e) {
            // not a character reference: keep the text as it is
        }
        return null;
    }

    /** Links whose last path segment (before any query) is {@code target}, in page order. */
    public List<String> linksTo(String target) {
        List<String> matching = new ArrayList<>();
        for (String link : links) {
            if (target.equals(lastSegment(link))) {
                matching.add(link);
            }
        }
        return matching;
    }

    /** The first form that posts to {@code target}, or null. */
    public Form formTo(String target) {
        for (Form form : forms) {
            if (target.equals(lastSegment(form.action()))) {
                return form;
            }
        }
        return null;
    }

    static String lastSegment(String url) {
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        return path.substring(path.lastIndexOf('/') + 1);
    }

    public List<String> links() {
        return links;
    }

    /** Distinct image sources in page order: what a browser fetches once per page. */
    public List<String> images() {
        return images;
    }

    public List<Form> forms() {
        return forms;
    }

    /** RUBiS error pages carry the word ERROR; the original client counted them. */
    public boolean isErrorPage() {
        return error;
    }
}
