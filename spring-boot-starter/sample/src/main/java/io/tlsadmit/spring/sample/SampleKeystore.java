package io.tlsadmit.spring.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made at start with the JDK's
 * keytool in a fresh temporary directory (so that no key ships in the jar and two samples never share
 * one), with its certificate in PEM for clients ({@code curl --cacert}, {@code openssl s_client -CAfile}).
 */
final class SampleKeystore {

    /** Printed at start; a client that wants to verify the server reads the PEM's path from it. */
    static final String CERTIFICATE_LINE = "tlsadmit sample: server certificate (PEM) at ";

    private final Path keystore;
    private final String password;

    private SampleKeystore(Path keystore, String password) {
        this.keystore = keystore;
        this.password = password;
    }

    static SampleKeystore generate() throws IOException {
        Path dir = Files.createTempDirectory("tlsadmit-sample-");
        Path keystore = dir.resolve("sample.p12");
        Path certificate = dir.resolve("sample.pem");
        // deleteOnExit runs in reverse order: the files, then their directory
        dir.toFile().deleteOnExit();
        keystore.toFile().deleteOnExit();
        certificate.toFile().deleteOnExit();
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        String password = HexFormat.of().formatHex(secret);
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        keytool(keytool, "-genkeypair", "-alias", "sample", "-keyalg", "RSA", "-keysize", "2048", "-validity", "30",
                "-dname", "CN=localhost, O=tlsadmit sample", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", password, "-keypass", password);
        keytool(keytool, "-exportcert", "-rfc", "-alias", "sample", "-keystore", keystore.toString(),
                "-storepass", password, "-file", certificate.toString());
        System.out.println(CERTIFICATE_LINE + certificate);
        return new SampleKeystore(keystore, password);
    }

    /** An SSL bundle named {@code sample} and the server port using it, as application.yml would say. */
    Map<String, Object> serverSslProperties() {
        return Map.of("spring.ssl.bundle.jks.sample.keystore.location", "file:" + keystore,
                "spring.ssl.bundle.jks.sample.keystore.password", password,
                "spring.ssl.bundle.jks.sample.keystore.type", "PKCS12",
                "server.ssl.bundle", "sample");
    }

    private static void keytool(String... command) throws IOException {
        Process process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException("keytool failed: " + output.strip());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the sample's keystore", e);
        }
    }
}
