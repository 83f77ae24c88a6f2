package io.tlsadmit.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A client's own key and self-signed certificate, for servers that require one (mutual TLS): both in PEM for
 * {@code openssl s_client -cert -key}, and a PKCS12 truststore holding the certificate for Tomcat's
 * {@code truststoreFile}. Made with openssl and the JDK's keytool, as an operator would.
 */
public final class ClientCertificate {

    /** The certificate's subject, as {@code X500Principal.getName()} writes it. */
    public static final String SUBJECT = "CN=tlsadmit-client";
    public static final String PASSWORD = TestKeystore.PASSWORD;

    private final Path key;
    private final Path certificate;
    private final Path truststore;

    private ClientCertificate(Path key, Path certificate, Path truststore) {
        this.key = key;
        this.certificate = certificate;
        this.truststore = truststore;
    }

    /** A new key and certificate in {@code dir} (made anew each time: a test may trust only this client). */
    public static ClientCertificate create(Path dir) {
        Path key = dir.resolve("client-key.pem").toAbsolutePath();
        Path certificate = dir.resolve("client.pem").toAbsolutePath();
        Path truststore = dir.resolve("client-truststore.p12").toAbsolutePath();
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(truststore);
            TestKeystore.run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.toString(),
                    "-out", certificate.toString(), "-subj", "/" + SUBJECT, "-days", "2");
            TestKeystore.run(Jdk.current().keytool().toString(), "-importcert", "-noprompt", "-alias", "client",
                    "-file", certificate.toString(), "-storetype", "PKCS12", "-keystore", truststore.toString(),
                    "-storepass", PASSWORD);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot make a client certificate in " + dir, e);
        }
        return new ClientCertificate(key, certificate, truststore);
    }

    public Path key() {
        return key;
    }

    public Path certificate() {
        return certificate;
    }

    public Path truststore() {
        return truststore;
    }
}
