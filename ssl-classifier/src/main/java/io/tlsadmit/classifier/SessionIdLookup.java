package io.tlsadmit.classifier;

/**
 * The server's TLS 1.2 session cache, asked before the handshake whether a session id offered by
 * the client will really resume. Without it a forged or expired session id looks like a
 * resumption; clients also send random ids (TLS 1.3 compatibility mode) that no cache holds.
 */
@FunctionalInterface
public interface SessionIdLookup {
    /**
     * @param sessionId the id in {@code sessionId[0..length)}; the array is reused, copy it to keep it
     * @return whether the cache holds a resumable session under this id
     */
    boolean isCached(byte[] sessionId, int length);
}
