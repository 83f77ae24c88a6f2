package io.tlsadmit.netty.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * Answers every request {@code 200 OK} with a short body. Errors close the channel without a log line: a
 * failed or refused handshake is an event the gate counts, not a server fault, and under overload a stack
 * trace per refused client would cost more than the handshake.
 *
 * <p>{@code GET /work?n=K} first hashes K blocks of 4 KiB with SHA-256 on the event loop, as overload-bench's
 * {@code /work.jsp} does in Tomcat, so that a benchmark's requests cost the same CPU on both servers.
 */
@ChannelHandler.Sharable
final class OkHandler extends ChannelInboundHandlerAdapter {

    private static final byte[] BODY = "OK\n".getBytes(StandardCharsets.US_ASCII);
    static final String WORK_PATH = "/work";
    /** 40 MiB of hashing, some 100 ms: more is not a request but an attack on the example. */
    static final int MAX_WORK_BLOCKS = 10_000;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpRequest request) {
                respond(ctx, request);
            }
        } finally {
            ReferenceCountUtil.release(msg); // the request's body, if any, is not read
        }
    }

    private static void respond(ChannelHandlerContext ctx, HttpRequest request) {
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        HttpResponseStatus status = HttpResponseStatus.OK;
        byte[] text = BODY;
        if (uri.path().equals(WORK_PATH)) {
            List<String> n = uri.parameters().getOrDefault("n", List.of("0"));
            int blocks = n.size() == 1 ? blocks(n.get(0)) : -1;
            if (blocks < 0) {
                status = HttpResponseStatus.BAD_REQUEST;
                text = ("n must be a whole number of 4 KiB blocks, 0-" + MAX_WORK_BLOCKS + "\n")
                        .getBytes(StandardCharsets.US_ASCII);
            } else {
                text = ("OK " + work(blocks) + "\n").getBytes(StandardCharsets.US_ASCII);
            }
        }
        ByteBuf body = Unpooled.wrappedBuffer(text);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, text.length);
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** -1 for anything but a whole number in range. */
    static int blocks(String value) {
        if (value.isEmpty() || value.length() > 5 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        int blocks = Integer.parseInt(value);
        return blocks <= MAX_WORK_BLOCKS ? blocks : -1;
    }

    /** Each block's hash feeds the next block, so the JIT cannot drop the work. */
    static int work(int blocks) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        byte[] block = new byte[4096];
        for (int i = 0; i < blocks; i++) {
            sha.update(block);
            block[i % block.length] = sha.digest()[0];
        }
        return block[0];
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
