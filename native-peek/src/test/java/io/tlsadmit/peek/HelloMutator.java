package io.tlsadmit.peek;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded mutations of recorded ClientHellos: bit flips, truncations, corrupted length fields, re-framing into
 * several records (then truncated or flipped), and trailing bytes. Deterministic for a given seed.
 */
final class HelloMutator {
    private final SplittableRandom random;

    HelloMutator(long seed) {
        this.random = new SplittableRandom(seed);
    }

    byte[] mutate(byte[] hello) {
        byte[] b = hello.clone();
        switch (random.nextInt(7)) {
            case 0 -> {
                for (int i = 1 + random.nextInt(4); i > 0; i--) {
                    flipBit(b);
                }
            }
            case 1 -> b = Arrays.copyOf(b, random.nextInt(b.length + 1));
            case 2 -> corruptLengthField(b);
            case 3 -> {
                b = reframe(b, recordSize());
                b = Arrays.copyOf(b, random.nextInt(b.length + 1));
            }
            case 4 -> {
                b = reframe(b, recordSize());
                flipBit(b);
            }
            case 5 -> {
                b = reframe(b, recordSize());
                corruptLengthField(b);
            }
            default -> {
                b = Arrays.copyOf(b, b.length + 1 + random.nextInt(40));
                for (int i = hello.length; i < b.length; i++) {
                    b[i] = (byte) random.nextInt(256);
                }
            }
        }
        return b;
    }

    private int recordSize() {
        int[] sizes = {1, 2, 3, 7, 50, 300, 1000};
        return sizes[random.nextInt(sizes.length)];
    }

    private void flipBit(byte[] b) {
        if (b.length > 0) {
            b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
        }
    }

    /** Sets one of the hello's length fields (record, handshake, body or extension) to an interesting value. */
    private void corruptLengthField(byte[] b) {
        List<int[]> fields = lengthFields(b);
        if (fields.isEmpty()) {
            flipBit(b);
            return;
        }
        int[] field = fields.get(random.nextInt(fields.size()));
        int offset = field[0];
        int width = field[1];
        long old = 0;
        for (int i = 0; i < width; i++) {
            old = old << 8 | (b[offset + i] & 0xff);
        }
        long max = (1L << (8 * width)) - 1;
        long[] choices = {0, 1, old - 1, old + 1, old + 2, max, random.nextLong(max + 1)};
        long value = choices[random.nextInt(choices.length)] & max;
        for (int i = width - 1; i >= 0; i--) {
            b[offset + i] = (byte) value;
            value >>>= 8;
        }
    }

    /** Offsets and widths of the length fields a parse walks through (for hellos within the first record). */
    static List<int[]> lengthFields(byte[] b) {
        List<int[]> fields = new ArrayList<>();
        if (b.length < 5 || b[0] != 0x16) {
            return fields;
        }
        fields.add(new int[] {3, 2});
        int at = 5;
        if (b.length < at + 4) {
            return fields;
        }
        fields.add(new int[] {at + 1, 3});
        at += 4 + 2 + 32;
        if (b.length <= at) {
            return fields;
        }
        fields.add(new int[] {at, 1});
        at += 1 + (b[at] & 0xff);
        if (b.length < at + 2) {
            return fields;
        }
        fields.add(new int[] {at, 2});
        at += 2 + u16(b, at);
        if (b.length <= at) {
            return fields;
        }
        fields.add(new int[] {at, 1});
        at += 1 + (b[at] & 0xff);
        if (b.length < at + 2) {
            return fields;
        }
        fields.add(new int[] {at, 2});
        at += 2;
        while (b.length >= at + 4) {
            fields.add(new int[] {at + 2, 2});
            int length = u16(b, at + 2);
            if (b.length >= at + 6) {
                fields.add(new int[] {at + 4, 2}); // the first inner length of most extension bodies
            }
            at += 4 + length;
        }
        return fields;
    }

    /** The handshake payload of the leading records, framed again into records of {@code size} bytes. */
    static byte[] reframe(byte[] b, int size) {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        int at = 0;
        while (b.length - at >= 5 && b[at] == 0x16) {
            int length = u16(b, at + 3);
            if (length == 0 || b.length - at - 5 < length) {
                break;
            }
            payload.write(b, at + 5, length);
            at += 5 + length;
        }
        if (payload.size() == 0) {
            return b;
        }
        byte[] handshake = payload.toByteArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < handshake.length; i += size) {
            int n = Math.min(size, handshake.length - i);
            out.write(0x16);
            out.write(3);
            out.write(1);
            out.write(n >>> 8);
            out.write(n);
            out.write(handshake, i, n);
        }
        out.write(b, at, b.length - at);
        return out.toByteArray();
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
    }
}
