package io.tlsadmit.testing;

/** Tomcat did not come up; the message carries the end of catalina.out. */
public final class TomcatStartException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String catalinaOut;

    TomcatStartException(String message, String catalinaOut) {
        super(message);
        this.catalinaOut = catalinaOut;
    }

    /** The whole of catalina.out at the time of the failure. */
    public String catalinaOut() {
        return catalinaOut;
    }
}
