package io.tlsadmit.experiment.server;

/**
 * How long the server keeps an idle keep-alive connection, scaled with the users' think time as in the 2005 study:
 * Tomcat's connection timeout was 10 s against a mean think time of 7 s, so a user who thought longer than 10 s
 * came back on a new connection and resumed its TLS session (with exponential think times, about a quarter of
 * the clicks: e^(-10/7) = 0.24). Scaling both by the same factor keeps that share. Left at Tomcat's default
 * (the connection timeout, 20 s here) against think times of 0.7 s, every user kept one connection for its whole
 * session and the experiment never saw a resumption.
 */
public final class KeepAliveTimeout {

    /** The study's timeout at think-time scale 1. */
    static final int STUDY_MILLIS = 10_000;

    private KeepAliveTimeout() {
    }

    /** {@code 10 s × thinkTimeScale}, at least 1 ms (Tomcat reads 0 or less as "no timeout"). */
    public static int millis(double thinkTimeScale) {
        if (!(thinkTimeScale > 0) || Double.isInfinite(thinkTimeScale)) {
            throw new IllegalArgumentException("think time scale must be positive, got " + thinkTimeScale);
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(STUDY_MILLIS * thinkTimeScale)));
    }
}
