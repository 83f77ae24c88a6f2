package io.tlsadmit.attack.server;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The gated connector's TLS engine ({@code sslImplementationName}): JSSE with the late gate (the protocol's
 * default), Tomcat's OpenSSL through FFM with the late gate (our certificate callback), or Tomcat's OpenSSL as it
 * comes, which the gate cannot ask before a full handshake (the gate with OpenSSL before the certificate callback).
 */
public enum TlsEngine {
    JSSE("jsse", null, false),
    OPENSSL("openssl", "io.tlsadmit.tomcat.GatedOpenSslImplementation", true),
    OPENSSL_UNGATED("openssl-ungated", "org.apache.tomcat.util.net.openssl.panama.OpenSSLImplementation", true);

    /** FFM is final from Java 22 on; Tomcat's OpenSSL implementation through it needs that. */
    public static final int OPENSSL_MIN_JAVA = 22;

    private final String label;
    private final String implementation;
    private final boolean openSsl;

    TlsEngine(String label, String implementation, boolean openSsl) {
        this.label = label;
        this.implementation = implementation;
        this.openSsl = openSsl;
    }

    public String label() {
        return label;
    }

    /** The connector's {@code sslImplementationName}; null for the protocol's default (JSSE, gated). */
    public String implementation() {
        return implementation;
    }

    /** Needs {@code OpenSSLLifecycleListener} in server.xml and Java {@link #OPENSSL_MIN_JAVA}+. */
    public boolean isOpenSsl() {
        return openSsl;
    }

    public static TlsEngine of(String label) {
        for (TlsEngine engine : values()) {
            if (engine.label.equals(label)) {
                return engine;
            }
        }
        throw new IllegalArgumentException("unknown engine " + label + ", expected one of "
                + Arrays.stream(values()).map(TlsEngine::label).collect(Collectors.joining(",")));
    }
}
