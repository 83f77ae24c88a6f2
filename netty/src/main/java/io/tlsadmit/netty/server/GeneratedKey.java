package io.tlsadmit.netty.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * A key pair and a self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made at start with
 * the JDK's public APIs only: the key by {@link KeyPairGenerator}, the certificate's DER written here (a
 * v3 TBSCertificate with a subjectAltName, about forty bytes of fixed structure) and signed by
 * {@link Signature}, then parsed back by {@link CertificateFactory}, which checks what was written. This
 * avoids BouncyCastle (a large dependency for one certificate), the JDK's internal {@code sun.security.x509}
 * (closed to reflection since JDK 16) and running {@code keytool} as a process.
 */
public final class GeneratedKey {

    /** The key algorithms the example server offers; RSA-2048 is what the Tomcat benchmarks use. */
    public enum Type {
        RSA("RSA", 2048, "SHA256withRSA",
                // sha256WithRSAEncryption 1.2.840.113549.1.1.11 with NULL parameters
                new byte[] {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01,
                    0x0b, 0x05, 0x00}),
        EC("EC", 256, "SHA256withECDSA",
                // ecdsa-with-SHA256 1.2.840.10045.4.3.2, parameters absent (RFC 5758)
                new byte[] {0x30, 0x0a, 0x06, 0x08, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x04, 0x03, 0x02});

        private final String algorithm;
        private final int bits;
        private final String signature;
        private final byte[] signatureAlgorithmDer;

        Type(String algorithm, int bits, String signature, byte[] signatureAlgorithmDer) {
            this.algorithm = algorithm;
            this.bits = bits;
            this.signature = signature;
            this.signatureAlgorithmDer = signatureAlgorithmDer;
        }
    }

    private static final byte[] COMMON_NAME_OID = {0x06, 0x03, 0x55, 0x04, 0x03};
    private static final byte[] SUBJECT_ALT_NAME_OID = {0x06, 0x03, 0x55, 0x1d, 0x11};
    private static final byte[] LOOPBACK = {127, 0, 0, 1};
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");

    private final PrivateKey privateKey;
    private final X509Certificate certificate;

    private GeneratedKey(PrivateKey privateKey, X509Certificate certificate) {
        this.privateKey = privateKey;
        this.certificate = certificate;
    }

    /** A new key and a certificate valid from an hour ago for a year. */
    public static GeneratedKey generate(Type type) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(type.algorithm);
        SecureRandom random = new SecureRandom();
        generator.initialize(type.bits, random);
        KeyPair pair = generator.generateKeyPair();

        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        byte[] name = sequence(set(sequence(COMMON_NAME_OID, tlv(0x0c, "localhost".getBytes(StandardCharsets.US_ASCII)))));
        byte[] generalNames = sequence(tlv(0x82, "localhost".getBytes(StandardCharsets.US_ASCII)), tlv(0x87, LOOPBACK));
        byte[] extensions = tlv(0xa3, sequence(sequence(SUBJECT_ALT_NAME_OID, tlv(0x04, generalNames))));
        byte[] tbs = sequence(
                tlv(0xa0, tlv(0x02, new byte[] {2})), // version v3
                tlv(0x02, new BigInteger(63, random).add(BigInteger.ONE).toByteArray()),
                type.signatureAlgorithmDer,
                name,
                sequence(utcTime(now.minusHours(1)), utcTime(now.plusYears(1))),
                name,
                pair.getPublic().getEncoded(), // SubjectPublicKeyInfo, DER already
                extensions);

        Signature signer = Signature.getInstance(type.signature);
        signer.initSign(pair.getPrivate());
        signer.update(tbs);
        byte[] signatureBits = signer.sign();
        byte[] bitString = new byte[signatureBits.length + 1]; // leading 0: no unused bits
        System.arraycopy(signatureBits, 0, bitString, 1, signatureBits.length);
        byte[] der = sequence(tbs, type.signatureAlgorithmDer, tlv(0x03, bitString));

        X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
        certificate.verify(pair.getPublic());
        return new GeneratedKey(pair.getPrivate(), certificate);
    }

    public PrivateKey privateKey() {
        return privateKey;
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** The certificate in PEM, for clients that should verify it ({@code curl --cacert}). */
    public String certificatePem() throws GeneralSecurityException {
        return "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(certificate.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
    }

    private static byte[] utcTime(ZonedDateTime time) {
        return tlv(0x17, UTC_TIME.format(time).getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] sequence(byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    private static byte[] set(byte[]... parts) {
        return tlv(0x31, concat(parts));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** One DER element: tag, definite length (short or long form), contents. */
    private static byte[] tlv(int tag, byte[] contents) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(contents.length + 6);
        out.write(tag);
        int length = contents.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int octets = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | octets);
            for (int i = octets - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(contents);
        return out.toByteArray();
    }
}
