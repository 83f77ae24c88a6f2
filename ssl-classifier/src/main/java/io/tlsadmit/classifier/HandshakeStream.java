package io.tlsadmit.classifier;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Reads the handshake layer of a TLS byte stream: the payloads of consecutive handshake records,
 * as one sequence, so a ClientHello split anywhere over any number of records (and reads) parses
 * like a contiguous one. Reads only inside {@code [position, limit)} of the buffer, with absolute
 * gets, and reports "need more bytes" instead of ever reading past what has arrived.
 */
final class HandshakeStream {
    /** The bytes that would let the read go on have not arrived yet. */
    static final int NEED_MORE = -1;
    /** The bytes break the record layer or the hello's structure. */
    static final int BROKEN = -2;

    static final int RECORD_HEADER = 5;
    static final int HANDSHAKE_HEADER = 4;
    static final int MAX_RECORD_PAYLOAD = 1 << 14;
    static final int HANDSHAKE = 0x16;
    /** Enough for every hello seen from real clients (Chromium's post-quantum one is ~1.9 KiB). */
    private static final int INITIAL_SCRATCH = 4096;

    /*
     * Each record's payload is copied, once, as the parse enters it, into `scratch`, where the handshake
     * stream lies contiguous: scratch[i] is stream byte i. The parse then reads a byte array with one
     * comparison per read, instead of going through the ByteBuffer (its index checks, and for direct
     * buffers its memory-session checks) for every byte; measured in ClassifyBenchmark.
     */
    private byte[] scratch = new byte[INITIAL_SCRATCH];
    private ByteBuffer buf;
    private int limit;
    /** Stream offset of the next byte to read. */
    private int pos;
    /** Stream offset where the current record ends. */
    private int recordEnd;
    /** Stream offset where the copied bytes end: below it a read needs no check but this one. */
    private int readableEnd;
    /** Buffer index minus stream offset within the current record (record headers are not in the stream). */
    private int delta;
    /** Stream offset of the end of the hello (header included) once its header is read, else -1. */
    int helloEnd;
    int records;
    int needed;
    String brokenReason;

    void start(ByteBuffer src, int payloadStart, int payloadLength, int limit) {
        this.buf = src;
        this.limit = limit;
        this.pos = 0;
        this.delta = payloadStart;
        this.recordEnd = payloadLength;
        this.helloEnd = -1;
        this.records = 1;
        this.needed = 0;
        this.brokenReason = null;
        this.readableEnd = fill(0, Math.min(payloadLength, limit - payloadStart));
    }

    /** Forgets the buffer so a pooled holder does not pin a connection's memory. */
    void release() {
        buf = null;
    }

    /** Offset within the handshake stream (the concatenated record payloads). */
    int logical() {
        return pos;
    }

    int u8() {
        if (pos < readableEnd) {
            return scratch[pos++] & 0xff;
        }
        int ready = ready();
        return ready < 0 ? ready : scratch[pos++] & 0xff;
    }

    int u16() {
        if (pos + 2 <= readableEnd) {
            int value = ((scratch[pos] & 0xff) << 8) | (scratch[pos + 1] & 0xff);
            pos += 2;
            return value;
        }
        int high = u8();
        if (high < 0) {
            return high;
        }
        int low = u8();
        return low < 0 ? low : (high << 8) | low;
    }

    int u24() {
        int high = u8();
        if (high < 0) {
            return high;
        }
        int low = u16();
        return low < 0 ? low : (high << 16) | low;
    }

    /** Skips {@code n} bytes of the handshake stream; 0 when done. */
    int skip(int n) {
        if (pos + n <= readableEnd) {
            pos += n;
            return 0;
        }
        while (n > 0) {
            if (pos == readableEnd) {
                int ready = ready();
                if (ready < 0) {
                    return ready;
                }
            }
            int step = Math.min(n, readableEnd - pos);
            pos += step;
            n -= step;
        }
        return 0;
    }

    /** Copies {@code n} bytes of the handshake stream into {@code dst[offset..]}; 0 when done. */
    int copy(byte[] dst, int offset, int n) {
        if (pos + n <= readableEnd) {
            System.arraycopy(scratch, pos, dst, offset, n);
            pos += n;
            return 0;
        }
        while (n > 0) {
            if (pos == readableEnd) {
                int ready = ready();
                if (ready < 0) {
                    return ready;
                }
            }
            int step = Math.min(n, readableEnd - pos);
            System.arraycopy(scratch, pos, dst, offset, step);
            pos += step;
            offset += step;
            n -= step;
        }
        return 0;
    }

    /**
     * Called with every copied byte read: makes at least one more readable, entering the next record
     * if the current one is done. Every byte of the current record that had arrived was copied, so
     * inside a record this can only report that the rest has not arrived.
     */
    private int ready() {
        if (pos < recordEnd) {
            return needMore(recordEnd - pos);
        }
        int at = pos + delta; // buffer index of the next record header
        if (limit - at < RECORD_HEADER) {
            needed = at + RECORD_HEADER - limit;
            return NEED_MORE;
        }
        int type = buf.get(at) & 0xff;
        int major = buf.get(at + 1) & 0xff;
        int length = ((buf.get(at + 3) & 0xff) << 8) | (buf.get(at + 4) & 0xff);
        if (type != HANDSHAKE) {
            return broken("a record of another type interrupts the ClientHello");
        }
        if (major != 3) {
            return broken("a record of the ClientHello has a version other than 3.x");
        }
        if (length == 0 || length > MAX_RECORD_PAYLOAD) {
            return broken("a record length is 0 or over 2^14");
        }
        delta = at + RECORD_HEADER - pos;
        recordEnd = pos + length;
        records++;
        int arrived = Math.min(length, limit - (at + RECORD_HEADER));
        if (helloEnd >= 0) {
            arrived = Math.min(arrived, helloEnd - pos); // bytes past the hello are never read
        }
        readableEnd = fill(pos, arrived);
        return pos < readableEnd ? 0 : needMore(length);
    }

    /** Copies {@code count} arrived stream bytes from {@code from} on; returns the end of the copy. */
    private int fill(int from, int count) {
        int end = from + count;
        if (end > scratch.length) {
            // Once per holder, for a hello larger than any seen before; bounded by the bytes that arrived.
            scratch = Arrays.copyOf(scratch, Math.max(end, 2 * scratch.length));
        }
        buf.get(from + delta, scratch, from, count);
        return end;
    }

    /**
     * At the end of what arrived, inside a record: the missing bytes of the record, or of the hello if
     * it ends first; before the hello's length is known, of its 4-byte handshake header, because the
     * record may hold more than the hello and a caller must never be told to wait for bytes past it.
     */
    private int needMore(int restOfRecord) {
        int rest = helloEnd < 0 ? HANDSHAKE_HEADER - pos : helloEnd - pos;
        needed = Math.min(restOfRecord, rest);
        return NEED_MORE;
    }

    int broken(String reason) {
        brokenReason = reason;
        return BROKEN;
    }
}
