package io.tlsadmit.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A PKCS12 keystore holding one self-signed server certificate for {@code localhost} and
 * {@code 127.0.0.1}, made with the JDK's keytool exactly as an operator would, plus its certificate
 * in PEM for {@code curl --cacert} and {@code openssl s_client -CAfile}.
 */
public final class TestKeystore {

    public enum KeyType {
        RSA_2048("RSA", "RSA", "-keysize", "2048"),
        RSA_4096("RSA", "RSA", "-keysize", "4096"),
        EC_P256("EC", "EC", "-groupname", "secp256r1");

        private final String keyAlg;
        /** Tomcat's {@code Certificate type} attribute. */
        private final String tomcatType;
        private final String sizeOption;
        private final String sizeValue;

        KeyType(String keyAlg, String tomcatType, String sizeOption, String sizeValue) {
            this.keyAlg = keyAlg;
            this.tomcatType = tomcatType;
            this.sizeOption = sizeOption;
            this.sizeValue = sizeValue;
        }

        public String tomcatType() {
            return tomcatType;
        }
    }

    public static final String PASSWORD = "changeit";
    public static final String ALIAS = "tomcat";

    private final Path keystore;
    private final Path certificatePem;
    private final KeyType keyType;

    private TestKeystore(Path keystore, Path certificatePem, KeyType keyType) {
        this.keystore = keystore;
        this.certificatePem = certificatePem;
        this.keyType = keyType;
    }

    /** An RSA-2048 keystore in {@code dir}. */
    public static TestKeystore create(Path dir) {
        return create(dir, KeyType.RSA_2048);
    }

    /**
     * Makes {@code dir/server-<type>.p12} and {@code dir/server-<type>.pem}, reusing them when an earlier
     * call already made them (key generation is the slow part, RSA-4096 especially).
     */
    public static TestKeystore create(Path dir, KeyType type) {
        String stem = "server-" + type.name().toLowerCase().replace('_', '-');
        Path p12 = dir.resolve(stem + ".p12").toAbsolutePath();
        Path pem = dir.resolve(stem + ".pem").toAbsolutePath();
        try {
            Files.createDirectories(dir);
            if (!Files.isRegularFile(p12) || !Files.isRegularFile(pem)) {
                Files.deleteIfExists(p12);
                Path keytool = Jdk.current().keytool();
                run(keytool.toString(), "-genkeypair", "-alias", ALIAS, "-keyalg", type.keyAlg,
                        type.sizeOption, type.sizeValue, "-validity", "30",
                        "-dname", "CN=localhost, O=tlsadmit test",
                        "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                        "-storetype", "PKCS12", "-keystore", p12.toString(),
                        "-storepass", PASSWORD, "-keypass", PASSWORD);
                run(keytool.toString(), "-exportcert", "-rfc", "-alias", ALIAS,
                        "-keystore", p12.toString(), "-storepass", PASSWORD, "-file", pem.toString());
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot create keystore " + p12, e);
        }
        return new TestKeystore(p12, pem, type);
    }

    public Path path() {
        return keystore;
    }

    public Path certificatePem() {
        return certificatePem;
    }

    public KeyType keyType() {
        return keyType;
    }

    public String password() {
        return PASSWORD;
    }

    /** The server's certificate, as it goes on the wire (DER: {@code getEncoded()}). */
    public X509Certificate certificate() {
        try (InputStream in = Files.newInputStream(certificatePem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("Cannot read the certificate " + certificatePem, e);
        }
    }

    /** The server's key manager over this keystore, as a server built on the JDK's {@code KeyManagerFactory} has it. */
    public X509ExtendedKeyManager keyManager() {
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, PASSWORD.toCharArray());
            return (X509ExtendedKeyManager) factory.getKeyManagers()[0];
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("Cannot read the key of " + keystore, e);
        }
    }

    /** A client context that trusts exactly this certificate, for the given protocol ({@code "TLSv1.3"}...). */
    public SSLContext clientContext(String protocol) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("server", certificate());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance(protocol);
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("Cannot build a client context trusting " + certificatePem, e);
        }
    }

    /** Runs a key tool (keytool, openssl) to its end; its output is the exception's message when it fails. */
    static void run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException(command[0] + " timed out: " + String.join(" ", command));
            }
            if (process.exitValue() != 0) {
                throw new IOException(command[0] + " failed (" + process.exitValue() + "): " + output.strip());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while running " + command[0], e);
        }
    }

    @Override
    public String toString() {
        return keyType + " keystore " + keystore;
    }
}
