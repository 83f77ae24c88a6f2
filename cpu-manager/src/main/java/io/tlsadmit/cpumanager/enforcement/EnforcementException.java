package io.tlsadmit.cpumanager.enforcement;

/** The operating system refused an enforcement step; the message says which file or command. */
public final class EnforcementException extends RuntimeException {

    public EnforcementException(String message, Throwable cause) {
        super(message, cause);
    }

    public EnforcementException(String message) {
        super(message);
    }
}
