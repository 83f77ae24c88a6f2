package io.tlsadmit.attack.hello;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * Writes TLS wire structures: integers of 1–4 bytes and length-prefixed blocks whose length is filled
 * in when the block closes, so nested lengths (record, handshake, extensions, each extension) are
 * consistent by construction.
 */
final class TlsWriter {
    private record Open(int at, int width) {
    }

    private byte[] buf = new byte[512];
    private int size;
    private final Deque<Open> open = new ArrayDeque<>();

    TlsWriter u8(int value) {
        if (size == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        buf[size++] = (byte) value;
        return this;
    }

    TlsWriter u16(int value) {
        return u8(value >>> 8).u8(value);
    }

    TlsWriter u32(long value) {
        return u16((int) (value >>> 16)).u16((int) value);
    }

    TlsWriter bytes(byte[] value) {
        for (byte b : value) {
            u8(b);
        }
        return this;
    }

    /** Opens a block preceded by a length of {@code width} bytes (1, 2 or 3). */
    TlsWriter begin(int width) {
        open.push(new Open(size, width));
        for (int i = 0; i < width; i++) {
            u8(0);
        }
        return this;
    }

    /** Closes the innermost block and writes its length in front of it. */
    TlsWriter end() {
        Open block = open.pop();
        int length = size - block.at - block.width;
        if (length >= 1 << (8 * block.width)) {
            throw new IllegalStateException(length + " bytes do not fit a " + block.width + "-byte length");
        }
        for (int i = 0; i < block.width; i++) {
            buf[block.at + i] = (byte) (length >>> (8 * (block.width - 1 - i)));
        }
        return this;
    }

    byte[] toBytes() {
        if (!open.isEmpty()) {
            throw new IllegalStateException(open.size() + " blocks still open");
        }
        return Arrays.copyOf(buf, size);
    }
}
