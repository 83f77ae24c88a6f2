package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.StaticBudget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The watch on recorded client streams (testdata/post-handshake: openssl s_client renegotiating with R over TLS 1.2,
 * and sending a KeyUpdate with K over TLS 1.3), fed in every read size an adapter might see, and on the edges.
 */
class RenegotiationWatchTest {

    private static final int[] READ_SIZES = {1, 2, 3, 5, 7, 64, 1000, Integer.MAX_VALUE};

    private static ConnectionAdmission connection(RenegotiationPolicy policy) {
        ConnectorGate gate = new ConnectorGate("test", new StaticBudget(0, 0), RefuseAction.CLOSE, policy, 1);
        ConnectionAdmission connection = new ConnectionAdmission(gate);
        connection.reset(1, 1, 1);
        return connection;
    }

    private static byte[] recorded(String name) {
        try {
            return Files.readAllBytes(Path.of(System.getProperty("tlsadmit.root", "../"), "testdata/post-handshake", name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One integer of the sidecar, read without a JSON library (the gate's tests have none). */
    private static int sidecar(String name, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": (\\d+)").matcher(new String(recorded(name + ".json")));
        assertTrue(m.find(), key);
        return Integer.parseInt(m.group(1));
    }

    private static List<Integer> handshakeRecordsAfterFinished(String name) {
        Matcher list = Pattern.compile("\"handshake_records_after_finished\": \\[([^]]*)]", Pattern.DOTALL)
                .matcher(new String(recorded(name + ".json")));
        assertTrue(list.find());
        List<Integer> offsets = new ArrayList<>();
        for (String offset : list.group(1).split(",")) {
            if (!offset.isBlank()) {
                offsets.add(Integer.parseInt(offset.trim()));
            }
        }
        return offsets;
    }

    /** What an adapter does: reads of {@code size} bytes, handed on as far as the watch says. */
    private record Fed(int handedOn, boolean refused, int readFrom, int readTo) {
    }

    /**
     * Feeds {@code bytes} in reads of {@code size}; the engine completes the first handshake once it has been handed
     * the client's Finished ({@code finishedEnd}) and, when a renegotiation was let through, never finishes it.
     */
    private static Fed feed(RenegotiationWatch watch, byte[] bytes, int size, int finishedEnd, String protocol) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int handed = 0;
        for (int read = 0; read < bytes.length; read += Math.min(size, bytes.length - read)) {
            int to = read + Math.min(size, bytes.length - read);
            int at = read;
            while (at < to) {
                int end = watch.onInbound(in, at, to);
                if (end == RenegotiationWatch.REFUSED) {
                    return new Fed(handed, true, read, to);
                }
                assertTrue(end > at && end <= to, "progress within the read");
                handed = end;
                at = end;
                if (handed == finishedEnd) {
                    watch.handshakeCompleted(protocol);
                }
            }
        }
        return new Fed(handed, false, -1, -1);
    }

    @Test
    void aTls12RenegotiationIsRefusedAtItsFirstByteInEveryReadSize() {
        String name = "openssl-tls12-renegotiation";
        byte[] bytes = recorded(name + ".bin");
        int finishedEnd = sidecar(name, "client_finished_end");
        int renegotiation = handshakeRecordsAfterFinished(name).get(0);
        assertTrue(renegotiation > finishedEnd + 5, "a request between the handshake and the renegotiation");
        for (int size : READ_SIZES) {
            ConnectionAdmission connection = connection(RenegotiationPolicy.REFUSE);
            RenegotiationWatch watch = new RenegotiationWatch(connection);
            Fed fed = feed(watch, bytes, size, finishedEnd, "TLSv1.2");
            assertTrue(fed.refused(), "read size " + size);
            assertTrue(fed.readFrom() <= renegotiation && renegotiation < fed.readTo(),
                    "refused in the read that brought the new hello's first byte: " + size);
            assertTrue(fed.handedOn() <= renegotiation, "nothing of it went on: " + size);
            assertTrue(watch.isRefused());
            assertEquals(1, connection.gate().counters().renegotiations(Initiator.CLIENT, Decision.REFUSED));
        }
    }

    @Test
    void anAllowedRenegotiationIsCountedOnceAndHandedOnRecordByRecord() {
        String name = "openssl-tls12-renegotiation";
        byte[] bytes = recorded(name + ".bin");
        int finishedEnd = sidecar(name, "client_finished_end");
        List<Integer> later = handshakeRecordsAfterFinished(name);
        assertTrue(later.size() > 1, "the renegotiation's own handshake records follow its hello: " + later);
        ConnectionAdmission connection = connection(RenegotiationPolicy.CHARGE);
        RenegotiationWatch watch = new RenegotiationWatch(connection);
        Fed fed = feed(watch, bytes, Integer.MAX_VALUE, finishedEnd, "TLSv1.2");
        assertFalse(fed.refused());
        assertEquals(bytes.length, fed.handedOn());
        assertEquals(1, connection.gate().counters().renegotiations(Initiator.CLIENT, Decision.ADMITTED));
        assertTrue(connection.isRenegotiating() && watch.isHandshaking());
        watch.engineIdle();
        assertFalse(connection.isRenegotiating(), "the engine finished it");
        assertEquals(RenegotiationWatch.Step.PASS, watch.onHandshakeMessage());
        assertEquals(2, connection.gate().counters().renegotiations(Initiator.CLIENT, Decision.ADMITTED),
                "the next one is a renegotiation of its own");
    }

    @Test
    void tls13PostHandshakeMessagesAreNeverARenegotiation() {
        String name = "openssl-tls13-keyupdate";
        byte[] bytes = recorded(name + ".bin");
        assertTrue(handshakeRecordsAfterFinished(name).isEmpty(), "KeyUpdate travels in application-data records");
        for (int size : READ_SIZES) {
            ConnectionAdmission connection = connection(RenegotiationPolicy.REFUSE);
            RenegotiationWatch watch = new RenegotiationWatch(connection);
            Fed fed = feed(watch, bytes, size, sidecar(name, "client_finished_end"), "TLSv1.3");
            assertFalse(fed.refused());
            assertEquals(bytes.length, fed.handedOn());
            assertFalse(watch.isWatching(), "an adapter may stop feeding it");
            assertEquals(RenegotiationWatch.Step.PASS, watch.onHandshakeMessage());
            assertEquals(0, connection.gate().counters().renegotiations(Initiator.CLIENT, Decision.REFUSED));
        }
    }

    @Test
    void untilTheHandshakeCompletesBytesGoOnOneRecordAtATime() {
        RenegotiationWatch watch = new RenegotiationWatch(connection(RenegotiationPolicy.REFUSE));
        // a handshake record of 3 bytes, then an empty alert record, then a handshake record split by the read
        ByteBuffer in = ByteBuffer.wrap(bytes(22, 3, 3, 0, 3, 1, 2, 3, 21, 3, 3, 0, 0, 22, 3, 3, 0, 1, 9));
        assertEquals(8, watch.onInbound(in, 0, 19));
        assertEquals(13, watch.onInbound(in, 8, 19), "an empty record ends with its header");
        assertEquals(17, watch.onInbound(in, 13, 17), "the read ends in the header");
        assertEquals(18, watch.onInbound(in, 17, 18), "the header's last byte: a record that is not over");
        assertEquals(19, watch.onInbound(in, 18, 19));
        assertEquals(0, in.position(), "the buffer is not moved");
        assertEquals(19, in.limit());
    }

    @Test
    void afterATls12HandshakeAlertsAndApplicationDataPassAndAHandshakeRecordIsRefused() {
        ConnectionAdmission connection = connection(RenegotiationPolicy.REFUSE);
        RenegotiationWatch watch = new RenegotiationWatch(connection);
        watch.handshakeCompleted("TLSv1.2");
        assertFalse(watch.isHandshaking());
        // application data (2 bytes), a warning alert, and the first 3 header bytes of application data
        ByteBuffer in = ByteBuffer.wrap(bytes(23, 3, 3, 0, 2, 7, 7, 21, 3, 3, 0, 2, 1, 0, 23, 3, 3));
        assertEquals(17, watch.onInbound(in, 0, 17), "a whole read goes on at once");
        // the rest of that header (a 300-byte body), part of the body, then the body's end and a handshake record
        byte[] rest = new byte[2 + 300 + 1];
        rest[0] = 0x01;
        rest[1] = 0x2c;
        rest[50] = 22;
        rest[302] = 22;
        ByteBuffer next = ByteBuffer.wrap(rest);
        assertEquals(100, watch.onInbound(next, 0, 100));
        assertEquals(0, connection.gate().counters().renegotiations(Initiator.CLIENT, Decision.REFUSED),
                "a 22 inside a record body is no header");
        assertEquals(RenegotiationWatch.REFUSED, watch.onInbound(next, 100, 303));
        assertEquals(1, connection.gate().counters().renegotiations(Initiator.CLIENT, Decision.REFUSED));
    }

    @Test
    void theEnginesSignalIsDecidedOnlyOnAnEstablishedTls12Connection() {
        ConnectionAdmission connection = connection(RenegotiationPolicy.REFUSE);
        RenegotiationWatch watch = new RenegotiationWatch(connection);
        assertEquals(RenegotiationWatch.Step.PASS, watch.onHandshakeMessage(), "the first handshake's own");
        watch.handshakeCompleted("TLSv1.2");
        assertEquals(RenegotiationWatch.Step.REFUSE, watch.onHandshakeMessage());
        assertTrue(watch.isRefused());
        watch.reset();
        assertFalse(watch.isRefused(), "a new connection");
        assertEquals(RenegotiationWatch.Step.PASS, watch.onHandshakeMessage());
    }

    @Test
    void theServersOwnRenegotiationIsLetThroughAndEndsWithIt() {
        ConnectionAdmission connection = connection(RenegotiationPolicy.REFUSE);
        RenegotiationWatch watch = new RenegotiationWatch(connection);
        watch.handshakeCompleted("TLSv1.2");
        watch.serverRenegotiation();
        assertEquals(RenegotiationWatch.Step.PASS, watch.onHandshakeMessage(), "the client's answer to the server's");
        assertEquals(1, connection.gate().counters().renegotiations(Initiator.SERVER, Decision.ADMITTED));
        watch.serverRenegotiationEnded();
        assertFalse(connection.isRenegotiating());
        assertEquals(RenegotiationWatch.Step.REFUSE, watch.onHandshakeMessage());
    }

    private static byte[] bytes(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }
}
