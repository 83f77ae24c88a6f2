package io.tlsadmit.classifier;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Builds ClientHellos byte by byte for tests, framed into one or more TLS records. */
final class HelloBuilder {
    private int legacyVersion = TlsVersion.TLS1_2;
    private byte[] sessionId = new byte[0];
    private byte[] cipherSuites = {0x13, 0x01, (byte) 0xc0, 0x2f};
    private byte[] compression = {0};
    private final List<byte[]> extensions = new ArrayList<>();
    private boolean noExtensionBlock;

    static HelloBuilder tls13() {
        return new HelloBuilder()
                .sessionId(filled(32, 0x5a))
                .sni("localhost")
                .extension(10, bytes(0, 2, 0, 0x1d))
                .supportedVersions(TlsVersion.TLS1_3, TlsVersion.TLS1_2)
                .extension(51, bytes(0, 0));
    }

    static HelloBuilder tls12() {
        return new HelloBuilder().sni("localhost").extension(10, bytes(0, 2, 0, 0x1d));
    }

    HelloBuilder legacyVersion(int version) {
        legacyVersion = version;
        return this;
    }

    HelloBuilder sessionId(byte[] id) {
        sessionId = id;
        return this;
    }

    HelloBuilder cipherSuites(byte[] suites) {
        cipherSuites = suites;
        return this;
    }

    HelloBuilder compression(byte[] methods) {
        compression = methods;
        return this;
    }

    HelloBuilder withoutExtensions() {
        noExtensionBlock = true;
        return this;
    }

    HelloBuilder extension(int type, byte[] data) {
        ByteArrayOutputStream ext = new ByteArrayOutputStream();
        u16(ext, type);
        u16(ext, data.length);
        ext.writeBytes(data);
        extensions.add(ext.toByteArray());
        return this;
    }

    HelloBuilder sni(String host) {
        byte[] name = host.getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        u16(data, name.length + 3);
        data.write(0);
        u16(data, name.length);
        data.writeBytes(name);
        return extension(0, data.toByteArray());
    }

    HelloBuilder alpn(String... protocols) {
        ByteArrayOutputStream list = new ByteArrayOutputStream();
        for (String p : protocols) {
            list.write(p.length());
            list.writeBytes(p.getBytes(StandardCharsets.US_ASCII));
        }
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        u16(data, list.size());
        data.writeBytes(list.toByteArray());
        return extension(16, data.toByteArray());
    }

    HelloBuilder supportedVersions(int... versions) {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        data.write(versions.length * 2);
        for (int v : versions) {
            u16(data, v);
        }
        return extension(43, data.toByteArray());
    }

    HelloBuilder sessionTicket(byte[] ticket) {
        return extension(35, ticket);
    }

    HelloBuilder pskModes() {
        return extension(45, bytes(1, 1));
    }

    HelloBuilder earlyData() {
        return extension(42, new byte[0]);
    }

    /** A pre_shared_key with {@code identities} identities of 64 bytes and 32-byte binders. */
    HelloBuilder preSharedKey(int identities) {
        ByteArrayOutputStream ids = new ByteArrayOutputStream();
        ByteArrayOutputStream binders = new ByteArrayOutputStream();
        for (int i = 0; i < identities; i++) {
            u16(ids, 64);
            ids.writeBytes(filled(64, 0x30 + i));
            ids.writeBytes(bytes(0, 0, 0x10, 0));
            binders.write(32);
            binders.writeBytes(filled(32, 0x70 + i));
        }
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        u16(data, ids.size());
        data.writeBytes(ids.toByteArray());
        u16(data, binders.size());
        data.writeBytes(binders.toByteArray());
        return extension(41, data.toByteArray());
    }

    /** The handshake message: type, 24-bit length, body. */
    byte[] handshake() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        u16(body, legacyVersion);
        body.writeBytes(filled(32, 0x11));
        body.write(sessionId.length);
        body.writeBytes(sessionId);
        u16(body, cipherSuites.length);
        body.writeBytes(cipherSuites);
        body.write(compression.length);
        body.writeBytes(compression);
        if (!noExtensionBlock) {
            int total = extensions.stream().mapToInt(e -> e.length).sum();
            u16(body, total);
            extensions.forEach(body::writeBytes);
        }
        byte[] b = body.toByteArray();
        ByteArrayOutputStream msg = new ByteArrayOutputStream();
        msg.write(1);
        msg.write(b.length >>> 16);
        u16(msg, b.length & 0xffff);
        msg.writeBytes(b);
        return msg.toByteArray();
    }

    /** The hello in one record. */
    byte[] build() {
        return frame(handshake());
    }

    /** The hello split over as many records as the cut points make. */
    byte[] build(int... cuts) {
        return frame(handshake(), cuts);
    }

    /** Frames a handshake stream into records, cut at the given handshake-stream offsets. */
    static byte[] frame(byte[] handshake, int... cuts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int from = 0;
        int[] ends = Arrays.copyOf(cuts, cuts.length + 1);
        ends[cuts.length] = handshake.length;
        for (int end : ends) {
            out.write(0x16);
            out.write(3);
            out.write(1);
            u16(out, end - from);
            out.write(handshake, from, end - from);
            from = end;
        }
        return out.toByteArray();
    }

    /** The handshake stream inside records: the record payloads concatenated. */
    static byte[] unframe(byte[] records, int length) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int p = 0;
        while (p + 5 <= length) {
            int len = ((records[p + 3] & 0xff) << 8) | (records[p + 4] & 0xff);
            int n = Math.min(len, length - p - 5);
            out.write(records, p + 5, n);
            p += 5 + len;
        }
        return out.toByteArray();
    }

    static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static void u16(ByteArrayOutputStream out, int v) {
        out.write(v >>> 8);
        out.write(v & 0xff);
    }
}
