package io.tlsadmit.loadtests.run;

/** How one request attempt ended, as the client can tell. */
public enum Outcome {
    /** A response came back (any status). */
    REPLY,
    /** No response and the connection ended well before the timeout: the server (or the gate) closed it. */
    REFUSED,
    /** No response within the request timeout: the user gives up, as in the paper. */
    TIMEOUT;

    /**
     * Gatling does not tell a session why a request failed; what it does tell is whether a status arrived. A
     * connection the gate closes fails within milliseconds, a timed-out one after the whole timeout.
     */
    public static Outcome classify(boolean gotStatus, long elapsedMillis, long timeoutMillis) {
        if (gotStatus) {
            return REPLY;
        }
        return elapsedMillis >= timeoutMillis * 9 / 10 ? TIMEOUT : REFUSED;
    }
}
