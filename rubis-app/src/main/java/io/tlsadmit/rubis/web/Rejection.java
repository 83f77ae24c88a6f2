package io.tlsadmit.rubis.web;

/**
 * A request the site refuses, with the status and the message the user sees. Thrown from inside a transaction it
 * also rolls the transaction back.
 */
public final class Rejection extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    private Rejection(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** Missing or malformed parameters. */
    public static Rejection badRequest(String message) {
        return new Rejection(400, message);
    }

    /** Wrong nickname or password. */
    public static Rejection badCredentials() {
        return new Rejection(403, "You entered a wrong nickname or password.");
    }

    /** An id that names nothing. */
    public static Rejection notFound(String message) {
        return new Rejection(404, message);
    }

    /** A valid request that the current state of the data refuses (nickname taken, auction closed, sold out). */
    public static Rejection conflict(String message) {
        return new Rejection(409, message);
    }
}
