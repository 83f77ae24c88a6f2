package io.tlsadmit.attack.client;

import java.nio.ByteBuffer;

/**
 * Follows the TLS record headers of what a server sends, across reads, to notice an alert record
 * (type 21): the moment a refusing server has said no. TLS 1.3 encrypts alerts after its ServerHello
 * (they arrive as type 23), so those are only noticed when the server closes.
 */
final class ServerAnswer {
    private static final int ALERT = 21;

    private final byte[] header = new byte[5];
    private int headerBytes;
    private int bodyLeft;
    private long bytes;

    /** @return true once an alert record header has been seen */
    boolean feed(ByteBuffer in) {
        bytes += in.remaining();
        while (in.hasRemaining()) {
            if (bodyLeft > 0) {
                int skip = Math.min(bodyLeft, in.remaining());
                in.position(in.position() + skip);
                bodyLeft -= skip;
                continue;
            }
            header[headerBytes++] = in.get();
            if (headerBytes == header.length) {
                headerBytes = 0;
                if (header[0] == ALERT) {
                    return true;
                }
                bodyLeft = ((header[3] & 0xff) << 8) | (header[4] & 0xff);
            }
        }
        return false;
    }

    long bytes() {
        return bytes;
    }
}
