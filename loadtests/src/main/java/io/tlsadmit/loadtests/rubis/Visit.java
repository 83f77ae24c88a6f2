package io.tlsadmit.loadtests.rubis;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One user's walk through the site: draws each next state from the transition table, and turns it into a
 * request with parameters taken from the page the user is on — a random item link, the first user link,
 * a paging link, a form with its hidden fields — as the original client did. A state the current page offers
 * no way to reach is not drawn (the draw is repeated among the others); if nothing else is reachable the user
 * goes Home, which every page links to.
 */
public final class Visit {

    /** The original client's cap on a session's length. */
    public static final int DEFAULT_MAX_TRANSITIONS = 1000;
    private static final int DRAWS_BEFORE_GOING_HOME = 32;
    /** Registration asks for a region by name; this one is the spec's example, present in every data set. */
    static final String EXAMPLE_REGION = "CA--San Francisco";

    private final TransitionTable table;
    private final Random random;
    private final String contextPath;
    private final int userId;
    private final int maxTransitions;

    private PageRequest current;
    private PageContent content;
    private PageRequest previous;
    private int transitions;
    private boolean ended;

    public Visit(TransitionTable table, Random random, String contextPath, int userId, int maxTransitions) {
        this.table = table;
        this.random = random;
        this.contextPath = contextPath;
        this.userId = userId;
        this.maxTransitions = maxTransitions;
    }

    /**
     * The next page to ask for, or null when the session is over (End drawn, or the transition cap reached).
     * The first call gives Home.
     */
    public PageRequest plan() {
        if (ended) {
            return null;
        }
        if (current == null) {
            return PageRequest.get(Interaction.HOME, staticPage(Interaction.HOME));
        }
        if (transitions >= maxTransitions) {
            ended = true;
            return null;
        }
        Set<Interaction> unreachable = EnumSet.noneOf(Interaction.class);
        for (int draw = 0; draw < DRAWS_BEFORE_GOING_HOME; draw++) {
            Interaction next = table.next(current.interaction(), random.nextDouble());
            if (next == Interaction.END) {
                ended = true;
                return null;
            }
            if (unreachable.contains(next)) {
                continue;
            }
            PageRequest request = requestFor(next);
            if (request != null) {
                return request;
            }
            unreachable.add(next);
        }
        return PageRequest.get(Interaction.HOME, staticPage(Interaction.HOME));
    }

    /** The page came back: it is now the one the next state's parameters are taken from. */
    public void arrived(PageRequest request, String body) {
        if (current != null && request.interaction() != Interaction.BACK) {
            previous = current;
        }
        current = request.interaction() == Interaction.BACK && previous != null ? previous : request;
        content = PageContent.parse(request.path(), body == null ? "" : body);
        transitions++;
    }

    /** Images of the current page, each once, as a browser loads them. */
    public List<String> images() {
        return content == null ? List.of() : content.images();
    }

    public boolean onErrorPage() {
        return content != null && content.isErrorPage();
    }

    /** Mean think time before {@code next} as the table gives it. */
    public long meanThinkMillis(Interaction next) {
        return table.meanThinkMillis(next == Interaction.BACK ? current.interaction() : next);
    }

    public int transitions() {
        return transitions;
    }

    public int userId() {
        return userId;
    }

    PageRequest requestFor(Interaction next) {
        if (next == Interaction.BACK) {
            // Back re-shows the previous page; a form submission is never replayed
            if (previous == null || previous.isPost()) {
                return null;
            }
            return new PageRequest(Interaction.BACK, "GET", previous.path(), Map.of());
        }
        String staticPage = staticPage(next);
        if (staticPage != null) {
            return PageRequest.get(next, staticPage);
        }
        String target = servletName(next);
        List<String> links = content.linksTo(target);
        if (!links.isEmpty()) {
            // the spec: the first user link (the seller), any other link at random
            String link = next == Interaction.VIEW_USER_INFO ? links.get(0) : links.get(random.nextInt(links.size()));
            return PageRequest.get(next, link);
        }
        PageContent.Form form = content.formTo(target);
        if (form != null) {
            return new PageRequest(next, form.method(), form.action(), fill(next, form.fields()));
        }
        return null;
    }

    /** Fills what a person types; keeps what the page pre-filled (hidden ids, minimum bid, quantity 1). */
    private Map<String, String> fill(Interaction next, Map<String, String> fields) {
        Map<String, String> filled = new LinkedHashMap<>(fields);
        int price = 1 + random.nextInt(100);
        for (Map.Entry<String, String> field : filled.entrySet()) {
            String name = field.getKey();
            switch (name) {
                // a new user needs a free nickname that fits the form (20 characters)
                case "nickname" -> field.setValue(next == Interaction.REGISTER_USER
                        ? "load" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36)
                        : "user" + userId);
                case "password" -> field.setValue("password" + userId);
                default -> {
                    if (field.getValue().isEmpty()) {
                        field.setValue(typedValue(name, price));
                    }
                }
            }
        }
        return filled;
    }

    /** What a person would type into an empty field, by its name; prices consistent within one form. */
    private String typedValue(String field, int price) {
        String name = field.toLowerCase(java.util.Locale.ROOT);
        if (name.contains("email")) {
            return "load" + userId + "@example.test";
        }
        if (name.equals("region")) {
            return EXAMPLE_REGION;
        }
        if (name.contains("reserve")) {
            return Integer.toString(price + 10);
        }
        if (name.contains("buynow")) {
            return Integer.toString(price * 2);
        }
        if (name.contains("price") || name.contains("bid")) {
            return Integer.toString(price);
        }
        if (name.contains("qty") || name.contains("quantity")) {
            return "1";
        }
        if (name.contains("duration")) {
            return Integer.toString(1 + random.nextInt(7));
        }
        if (name.contains("rating")) {
            return "3";
        }
        return "load test " + field;
    }

    /** The static pages every page's navigation links to; null for servlet interactions. */
    private String staticPage(Interaction interaction) {
        String page = switch (interaction) {
            case HOME -> "index.html";
            case REGISTER -> "register.html";
            case BROWSE -> "browse.html";
            case SELL -> "sell.html";
            case ABOUT_ME_AUTH -> "about_me.html";
            default -> null;
        };
        return page == null ? null : contextPath + "/" + page;
    }

    /** The servlet name in rubis-app's URLs ({@code /rubis/servlet/<name>}) where it differs from the state. */
    static String servletName(Interaction interaction) {
        return switch (interaction) {
            case SEARCH_ITEMS_IN_CATEGORY -> "SearchItemsByCategory";
            case SEARCH_ITEMS_IN_REGION -> "SearchItemsByRegion";
            default -> interaction.title();
        };
    }

    /** For tests and reports: the states this page offers a way to. */
    public List<Interaction> reachableFromHere() {
        List<Interaction> reachable = new ArrayList<>();
        for (Interaction interaction : Interaction.values()) {
            if (interaction != Interaction.END && requestFor(interaction) != null) {
                reachable.add(interaction);
            }
        }
        return reachable;
    }
}
