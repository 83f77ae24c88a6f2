package io.tlsadmit.loadtests.rubis;

import java.util.Map;

/** One page a user asks for: the interaction it stands for, and the HTTP request that fetches it. */
public record PageRequest(Interaction interaction, String method, String path, Map<String, String> form) {

    public static PageRequest get(Interaction interaction, String path) {
        return new PageRequest(interaction, "GET", path, Map.of());
    }

    public boolean isPost() {
        return method.equals("POST");
    }
}
