package io.tlsadmit.cpumanager.config;

/** A configuration the manager refuses to start with; the message starts with the key at fault. */
public final class ConfigException extends Exception {

    private final String key;

    public ConfigException(String key, String problem) {
        super(key + ": " + problem);
        this.key = key;
    }

    /** The offending key as written in the file, e.g. {@code applications[1].priority}. */
    public String key() {
        return key;
    }
}
