package io.tlsadmit.gate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.Verdict;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class HelloRecordsTest {

    private static byte[] capturedRecord() throws Exception {
        return Files.readAllBytes(Path.of(System.getProperty("tlsadmit.root", "../"),
                "testdata/clienthello/chromium-server13-1-new.bin"));
    }

    /** The hello's handshake bytes re-sent in records of {@code size} bytes, then {@code tail}. */
    private static byte[] fragmented(byte[] record, int size, byte[] tail) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int from = 5; from < record.length; from += size) {
            int n = Math.min(size, record.length - from);
            wire.writeBytes(new byte[] {0x16, 0x03, 0x01, (byte) (n >> 8), (byte) n});
            wire.write(record, from, n);
        }
        wire.writeBytes(tail);
        return wire.toByteArray();
    }

    @Test
    void aHelloInOneByteRecordsBecomesTheOriginalSingleRecordFollowedByWhatCameAfter() throws Exception {
        byte[] record = capturedRecord();
        byte[] tail = {0x14, 0x03, 0x03, 0x00, 0x01, 0x01}; // a ChangeCipherSpec the client sent next
        byte[] wire = fragmented(record, 1, tail);
        ByteBuffer buf = ByteBuffer.allocateDirect(wire.length).put(wire);
        int end = HelloRecords.coalesce(buf, wire.length, record.length - 5);
        byte[] expected = new byte[record.length + tail.length];
        System.arraycopy(record, 0, expected, 0, record.length);
        System.arraycopy(tail, 0, expected, record.length, tail.length);
        expected[2] = 0x01; // the record version of the first fragment is kept
        byte[] actual = new byte[end];
        buf.get(0, actual);
        assertArrayEquals(Arrays.copyOfRange(expected, 3, expected.length), Arrays.copyOfRange(actual, 3, actual.length));
        assertEquals(wire.length, buf.position(), "position untouched");

        ClientHello hello = new ClientHello();
        assertEquals(Verdict.NEW, new ClientHelloClassifier(ServerPolicy.DEFAULT).classify(buf.duplicate().flip().limit(end), hello));
        assertEquals(1, hello.records());
    }

    @Test
    void aHelloInOneRecordOrAnIncompleteOneIsLeftAlone() throws Exception {
        byte[] record = capturedRecord();
        ByteBuffer whole = ByteBuffer.wrap(record.clone());
        assertEquals(-1, HelloRecords.coalesce(whole, record.length, record.length - 5));
        byte[] wire = fragmented(record, 100, new byte[0]);
        ByteBuffer cut = ByteBuffer.wrap(wire.clone());
        assertEquals(-1, HelloRecords.coalesce(cut, wire.length - 50, record.length - 5));
        assertArrayEquals(wire, cut.array());
    }

    @Test
    void aHelloIsInOneRecordOnlyWhenItsFirstRecordHoldsAllOfIt() throws Exception {
        byte[] record = capturedRecord();
        assertTrue(HelloRecords.inOneRecord(ByteBuffer.wrap(record), record.length));
        assertTrue(HelloRecords.inOneRecord(ByteBuffer.wrap(record), 9), "the headers tell; the body may still come");
        assertFalse(HelloRecords.inOneRecord(ByteBuffer.wrap(record), 8), "too few bytes to tell");
        byte[] split = fragmented(record, record.length - 6, new byte[0]); // the hello's last byte in a second record
        assertFalse(HelloRecords.inOneRecord(ByteBuffer.wrap(split), split.length));
        byte[] ones = fragmented(record, 1, new byte[0]);
        assertFalse(HelloRecords.inOneRecord(ByteBuffer.wrap(ones), ones.length));
        byte[] notHandshake = record.clone();
        notHandshake[0] = 0x17;
        assertFalse(HelloRecords.inOneRecord(ByteBuffer.wrap(notHandshake), notHandshake.length));
        byte[] lies = record.clone();
        lies[6] = 0x7f; // a hello length far beyond its record's
        assertFalse(HelloRecords.inOneRecord(ByteBuffer.wrap(lies), lies.length));
    }
}
