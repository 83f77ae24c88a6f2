package io.tlsadmit.tomcat;

/**
 * A Tomcat SSL implementation whose engines call the late gate when they commit to a full handshake: JSSE through
 * the key manager ({@link GatedJsseImplementation}), OpenSSL through a certificate callback on its {@code SSL_CTX}
 * ({@code GatedOpenSslImplementation}, Java 22 and later).
 */
interface LateGatedImplementation {

    /**
     * Whether the engine finds its connection by the thread that drives it rather than by the engine: OpenSSL calls
     * its callbacks with the native {@code SSL*} only, synchronously, on the thread inside the engine's wrap or unwrap
     * (Tomcat's OpenSSL engine has no delegated tasks). The channel then says which connection it is driving around
     * every engine call that can process a client's handshake message.
     */
    boolean findsConnectionByThread();
}
