package io.tlsadmit.gate;

import io.tlsadmit.classifier.ClientHello;
import java.nio.ByteBuffer;

/**
 * Rewrites a ClientHello that arrived over several TLS records as one record, in place, before the
 * server's TLS stack reads it. Record boundaries carry no meaning in a handshake (the transcript
 * hashes handshake messages, not records), but servers read fragmented hellos badly: Tomcat's SNI
 * extractor looks only at the first record (it logs a warning per connection and serves the default
 * host), and the engine reassembles a hello sent in one-byte records at several times the cost.
 */
public final class HelloRecords {

    private static final int HEADER = 5;
    private static final int HANDSHAKE = 22;
    private static final int MAX_PAYLOAD = 1 << 14;

    private HelloRecords() {
    }

    /**
     * Whether the ClientHello at the start of {@code [0, end)} of {@code buf} lies whole in its first record, so that
     * there is nothing to {@link #join}: a handshake record whose length covers the hello's 4-byte header and body.
     * False when the nine bytes that tell are not all there or are not a handshake record's. Only the headers are
     * read; whether the record itself has arrived is the classifier's business.
     */
    public static boolean inOneRecord(ByteBuffer buf, int end) {
        if (end < HEADER + 4 || (buf.get(0) & 0xff) != HANDSHAKE) {
            return false;
        }
        int recordLength = ((buf.get(3) & 0xff) << 8) | (buf.get(4) & 0xff);
        int helloLength = ((buf.get(6) & 0xff) << 16) | ((buf.get(7) & 0xff) << 8) | (buf.get(8) & 0xff);
        return 4 + helloLength <= recordLength;
    }

    /**
     * The hello the classifier has just read from {@code [0, end)} of {@code buf} as one record, if it came in
     * several (see {@link #coalesce}).
     *
     * @return the end of the data now: {@code end} when nothing was changed
     */
    public static int join(ByteBuffer buf, int end, ClientHello hello) {
        if (hello.records() <= 1) {
            return end;
        }
        int joined = coalesce(buf, end, 4 + hello.helloLength());
        return joined < 0 ? end : joined;
    }

    /**
     * Coalesces the handshake records at the start of {@code buf} that carry the first
     * {@code handshakeBytes} bytes of the handshake stream (the hello with its 4-byte header) into one
     * record; bytes after those records are moved up behind it. Reads and writes only {@code [0, end)}
     * with absolute accessors; position and limit are untouched.
     *
     * @return the new end of the data, or -1 when nothing was changed: the hello is in one record
     *         already, would not fit in one (over 2^14 bytes), or the records are not what the classifier
     *         accepted (the caller then leaves the bytes as they are)
     */
    public static int coalesce(ByteBuffer buf, int end, int handshakeBytes) {
        int at = 0;
        int payload = 0;
        int records = 0;
        while (payload < handshakeBytes) {
            if (end - at < HEADER || (buf.get(at) & 0xff) != HANDSHAKE) {
                return -1;
            }
            int length = ((buf.get(at + 3) & 0xff) << 8) | (buf.get(at + 4) & 0xff);
            if (length == 0 || length > end - at - HEADER) {
                return -1;
            }
            payload += length;
            at += HEADER + length;
            records++;
        }
        if (records == 1 || payload > MAX_PAYLOAD) {
            return -1;
        }
        // Forward copy in place: the write index never passes the read index (every record dropped
        // frees five bytes), so no byte is overwritten before it is read.
        int write = HEADER;
        int read = 0;
        while (read < at) {
            int length = ((buf.get(read + 3) & 0xff) << 8) | (buf.get(read + 4) & 0xff);
            for (int i = read + HEADER, stop = read + HEADER + length; i < stop; i++) {
                buf.put(write++, buf.get(i));
            }
            read += HEADER + length;
        }
        buf.put(3, (byte) (payload >>> 8));
        buf.put(4, (byte) payload);
        for (int i = at; i < end; i++) {
            buf.put(write++, buf.get(i));
        }
        return write;
    }
}
