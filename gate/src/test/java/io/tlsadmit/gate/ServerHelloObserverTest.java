package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.HandshakeKind;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class ServerHelloObserverTest {

    private static final byte[] HELLO_RETRY_RANDOM = HexFormat.of().parseHex(
            "CF21AD74E59A6111BE1D8C021E65B891C2A211167ABB8C5E079E09E2C8A8339C");
    private final ServerHelloObserver observer = new ServerHelloObserver();

    /** A ServerHello handshake message (header included) with the given extensions. */
    private static byte[] serverHello(int legacyVersion, byte[] random, byte[]... extensions) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(legacyVersion >> 8);
        body.write(legacyVersion);
        body.writeBytes(random);
        body.write(32);
        body.writeBytes(new byte[32]);
        body.writeBytes(new byte[] {0x13, 0x01, 0});
        if (extensions.length > 0) {
            int length = Arrays.stream(extensions).mapToInt(e -> e.length).sum();
            body.write(length >> 8);
            body.write(length);
            for (byte[] extension : extensions) {
                body.writeBytes(extension);
            }
        }
        return handshake(2, body.toByteArray());
    }

    private static byte[] handshake(int type, byte[] body) {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        message.write(type);
        message.write(body.length >> 16);
        message.write(body.length >> 8);
        message.write(body.length);
        message.writeBytes(body);
        return message.toByteArray();
    }

    private static byte[] extension(int type, byte... data) {
        byte[] out = new byte[4 + data.length];
        out[0] = (byte) (type >> 8);
        out[1] = (byte) type;
        out[2] = (byte) (data.length >> 8);
        out[3] = (byte) data.length;
        System.arraycopy(data, 0, out, 4, data.length);
        return out;
    }

    private static byte[] record(int type, byte[]... fragments) {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        for (byte[] fragment : fragments) {
            payload.writeBytes(fragment);
        }
        byte[] body = payload.toByteArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) type, 3, 3, (byte) (body.length >> 8), (byte) body.length});
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** Feeds bytes as a wrap leaves them: at an offset inside a larger buffer, position elsewhere. */
    private void wrap(byte[] records) {
        ByteBuffer buffer = ByteBuffer.allocate(records.length + 20);
        buffer.position(7);
        buffer.put(records);
        buffer.position(3);
        observer.onServerRecords(buffer, 7, 7 + records.length);
        assertEquals(3, buffer.position(), "the buffer is read with absolute gets only");
    }

    private static final byte[] RANDOM = new byte[32];
    private static final byte[] TLS13 = extension(43, (byte) 0x03, (byte) 0x04);
    private static final byte[] KEY_SHARE = extension(51, new byte[36]);
    private static final byte[] PSK = extension(41, (byte) 0, (byte) 0);
    private static final byte[] CCS = record(20, new byte[] {1});

    @Test
    void tls13ServerHelloWithoutPreSharedKeyIsAFullHandshake() {
        wrap(concat(record(22, serverHello(0x0303, RANDOM, KEY_SHARE, TLS13)), CCS, record(23, new byte[40])));
        assertEquals(HandshakeKind.FULL, observer.kind());
        assertEquals(0x0304, observer.version());
    }

    @Test
    void tls13ServerHelloWithPreSharedKeyIsAResumption() {
        wrap(record(22, serverHello(0x0303, RANDOM, TLS13, KEY_SHARE, PSK)));
        assertEquals(HandshakeKind.RESUMED, observer.kind());
        assertEquals(0x0304, observer.version());
    }

    @Test
    void helloRetryRequestIsSkippedUntilTheRealServerHello() {
        wrap(concat(record(22, serverHello(0x0303, HELLO_RETRY_RANDOM, TLS13, extension(51, (byte) 0, (byte) 29))), CCS));
        assertFalse(observer.isDone());
        wrap(record(22, serverHello(0x0303, RANDOM, TLS13, KEY_SHARE)));
        assertEquals(HandshakeKind.FULL, observer.kind());
    }

    @Test
    void tls12ServerHelloFollowedByCertificateIsAFullHandshake() {
        wrap(record(22, serverHello(0x0303, RANDOM, extension(0xff01, (byte) 0))));
        assertFalse(observer.isDone(), "a TLS 1.2 ServerHello alone does not tell");
        wrap(record(22, handshake(11, new byte[300])));
        assertEquals(HandshakeKind.FULL, observer.kind());
        assertEquals(0x0303, observer.version());
    }

    @Test
    void tls12ServerHelloFollowedByChangeCipherSpecIsAResumption() {
        wrap(record(22, serverHello(0x0303, RANDOM)));
        wrap(CCS);
        assertEquals(HandshakeKind.RESUMED, observer.kind());
        assertEquals(0x0303, observer.version());
    }

    @Test
    void tls12ServerHelloFollowedByARenewedTicketIsAResumption() {
        wrap(record(22, serverHello(0x0303, RANDOM), handshake(4, new byte[100])));
        assertEquals(HandshakeKind.RESUMED, observer.kind());
    }

    @Test
    void aServerHelloSplitIntoOneByteRecordsIsReassembled() {
        byte[] hello = serverHello(0x0303, RANDOM, TLS13, KEY_SHARE, PSK);
        ByteArrayOutputStream records = new ByteArrayOutputStream();
        for (byte b : hello) {
            records.writeBytes(record(22, new byte[] {b}));
        }
        byte[] all = records.toByteArray();
        wrap(Arrays.copyOf(all, all.length / 2));
        assertFalse(observer.isDone());
        wrap(Arrays.copyOfRange(all, all.length / 2, all.length));
        assertEquals(HandshakeKind.RESUMED, observer.kind());
    }

    @Test
    void anExtensionOverrunningTheHelloMakesItGiveUpRatherThanGuess() {
        byte[] hello = serverHello(0x0303, RANDOM, TLS13, PSK);
        hello[hello.length - 3] = 9; // the PSK extension claims 9 bytes where 2 remain
        wrap(record(22, hello));
        assertTrue(observer.isDone());
        assertNull(observer.kind());
        assertEquals(0, observer.version());
    }

    @Test
    void resetForgetsThePreviousConnection() {
        wrap(record(22, serverHello(0x0303, RANDOM, TLS13, PSK)));
        observer.reset();
        assertFalse(observer.isDone());
        wrap(record(22, serverHello(0x0303, RANDOM, TLS13)));
        assertEquals(HandshakeKind.FULL, observer.kind());
    }
}
