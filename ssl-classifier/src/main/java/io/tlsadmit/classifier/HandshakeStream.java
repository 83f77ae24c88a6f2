package io.tlsadmit.classifier;

import java.nio.ByteBuffer;

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

    private ByteBuffer buf;
    private int limit;
    private int pos;
    private int recordEnd;
    /** {@code min(recordEnd, limit)}: below it a read needs no record or arrival check (the hot path). */
    private int readableEnd;
    /** Handshake-stream offset minus buffer position: record headers are in the buffer, not the stream. */
    private int delta;
    /** Logical end of the hello (header included) once its header is read, else -1. */
    int helloEnd;
    int records;
    int needed;
    String brokenReason;

    void start(ByteBuffer src, int payloadStart, int payloadLength, int limit) {
        this.buf = src;
        this.limit = limit;
        this.pos = payloadStart;
        this.recordEnd = payloadStart + payloadLength;
        this.readableEnd = Math.min(recordEnd, limit);
        this.delta = -payloadStart;
        this.helloEnd = -1;
        this.records = 1;
        this.needed = 0;
        this.brokenReason = null;
    }

    /** Forgets the buffer so a pooled holder does not pin a connection's memory. */
    void release() {
        buf = null;
    }

    /** Offset within the handshake stream (the concatenated record payloads). */
    int logical() {
        return pos + delta;
    }

    int u8() {
        if (pos < readableEnd) {
            return buf.get(pos++) & 0xff;
        }
        int ready = ready();
        return ready < 0 ? ready : buf.get(pos++) & 0xff;
    }

    int u16() {
        if (pos + 2 <= readableEnd) {
            int value = ((buf.get(pos) & 0xff) << 8) | (buf.get(pos + 1) & 0xff);
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
            int ready = ready();
            if (ready < 0) {
                return ready;
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
            // Names and ids are short: a plain loop beats a bulk get's fixed cost on direct buffers.
            for (int i = 0; i < n; i++) {
                dst[offset + i] = buf.get(pos + i);
            }
            pos += n;
            return 0;
        }
        while (n > 0) {
            int ready = ready();
            if (ready < 0) {
                return ready;
            }
            int step = Math.min(n, readableEnd - pos);
            buf.get(pos, dst, offset, step);
            pos += step;
            offset += step;
            n -= step;
        }
        return 0;
    }

    /** Makes at least one payload byte readable at {@code pos}, entering the next record if needed. */
    private int ready() {
        if (pos < recordEnd) {
            if (pos < limit) {
                return 0;
            }
            return needMore(recordEnd - pos);
        }
        if (limit - pos < RECORD_HEADER) {
            needed = pos + RECORD_HEADER - limit;
            return NEED_MORE;
        }
        int type = buf.get(pos) & 0xff;
        int major = buf.get(pos + 1) & 0xff;
        int length = ((buf.get(pos + 3) & 0xff) << 8) | (buf.get(pos + 4) & 0xff);
        if (type != HANDSHAKE) {
            return broken("a record of another type interrupts the ClientHello");
        }
        if (major != 3) {
            return broken("a record of the ClientHello has a version other than 3.x");
        }
        if (length == 0 || length > MAX_RECORD_PAYLOAD) {
            return broken("a record length is 0 or over 2^14");
        }
        pos += RECORD_HEADER;
        delta -= RECORD_HEADER;
        recordEnd = pos + length;
        readableEnd = Math.min(recordEnd, limit);
        records++;
        return pos < limit ? 0 : needMore(length);
    }

    /**
     * At the end of what arrived, inside a record: the missing bytes of the record, or of the hello if
     * it ends first; before the hello's length is known, of its 4-byte handshake header, because the
     * record may hold more than the hello and a caller must never be told to wait for bytes past it.
     */
    private int needMore(int restOfRecord) {
        int rest = helloEnd < 0 ? HANDSHAKE_HEADER - logical() : helloEnd - logical();
        needed = Math.min(restOfRecord, rest);
        return NEED_MORE;
    }

    int broken(String reason) {
        brokenReason = reason;
        return BROKEN;
    }
}
