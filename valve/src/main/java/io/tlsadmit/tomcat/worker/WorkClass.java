package io.tlsadmit.tomcat.worker;

/**
 * How long the next piece of work for a connection is likely to take, in the order workers take it.
 * Shortest work first (as the 2005 session-aware admission work suggests): under load, clients already
 * admitted — requests on established connections, resumptions — are served before new full
 * handshakes, whose signature is the longest single piece of work a TLS server does.
 */
public enum WorkClass {
    /** A request on an established connection, or an admitted resumption. */
    SHORT,
    /** A new connection whose ClientHello has not been classified yet: cheap to classify, maybe long after. */
    UNCLASSIFIED,
    /** An admitted new full handshake, until it completes. */
    NEW_FULL_HANDSHAKE
}
