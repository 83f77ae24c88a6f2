package io.tlsadmit.attack.server;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The gated connector's attributes for one scenario: the budget (static with a rate and burst, or
 * adaptive with its defaults) and whatever else the scenario needs (e.g. connectionTimeout).
 */
public final class ScenarioAttributes {
    private final Map<String, String> attributes = new LinkedHashMap<>();

    private ScenarioAttributes() {
    }

    /** {@code static}: a fixed token bucket; {@code adaptive}: the defaults, so the measured controller decides. */
    public static ScenarioAttributes budget(String budget, String staticRate, String staticBurst) {
        ScenarioAttributes settings = new ScenarioAttributes();
        settings.attributes.put("budget", budget);
        if ("static".equals(budget)) {
            settings.attributes.put("maxFullHandshakesPerSecond", staticRate);
            settings.attributes.put("fullHandshakeBurst", staticBurst);
        }
        return settings;
    }

    public ScenarioAttributes attribute(String name, String value) {
        attributes.put(name, value);
        return this;
    }

    public boolean adaptive() {
        return "adaptive".equals(attributes.get("budget"));
    }

    Map<String, String> attributes() {
        return attributes;
    }

    /** e.g. {@code budget=static maxFullHandshakesPerSecond=5 fullHandshakeBurst=5}, for the report. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        attributes.forEach((k, v) -> text.append(text.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return text.toString();
    }
}
