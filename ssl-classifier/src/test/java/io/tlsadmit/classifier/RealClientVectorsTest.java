package io.tlsadmit.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every verdict on a real client's hello must be what the real server then did (recorded from its
 * ServerHello), and must survive any framing the network or the client chooses.
 */
class RealClientVectorsTest {
    private final ClientHello hello = new ClientHello();

    static List<Vectors> vectors() {
        return Vectors.all();
    }

    /** The real server's session cache as it was: it held the session exactly when it resumed it. */
    private static SessionIdLookup cacheOf(Vectors v) {
        return (id, length) -> v.resumed();
    }

    private Verdict classify(Vectors v, byte[] bytes, SessionIdLookup lookup) {
        return new ClientHelloClassifier(v.policy()).classify(ByteBuffer.wrap(bytes).slice(), hello, lookup);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void verdictIsWhatTheRealServerDidOnceTheSessionCacheIsAsked(Vectors v) {
        assertEquals(v.expectedVerdict(), classify(v, v.bytes(), cacheOf(v)).name());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void withoutTheCacheOnlyARandomSessionIdAtATls12ServerIsMistakenForAResumption(Vectors v) {
        Verdict verdict = classify(v, v.bytes(), null);
        if (!verdict.name().equals(v.expectedVerdict())) {
            assertEquals("NEW", v.expectedVerdict());
            assertEquals(Verdict.RESUME_SESSION_ID, verdict);
            assertEquals("1.2", v.serverMaxVersion());
            assertEquals(32, hello.sessionIdLength());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void factsAgreeWithAnIndependentParseOfTheSameBytes(Vectors v) {
        classify(v, v.bytes(), null);
        assertEquals(v.offeredSessionIdLength(), hello.sessionIdLength(), "session id length");
        assertEquals(v.offeredTicketLength(), hello.ticketLength(), "ticket length");
        assertEquals(v.offeredPskIdentities(), hello.pskIdentities(), "PSK identities");
        assertEquals(v.offeredSni(), hello.sni(), "SNI");
        assertEquals(v.offeredHelloLength(), hello.helloLength(), "hello length");
        assertEquals(v.offeredExtensions(), hello.extensions(), "extensions");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void reframingOverTwoAndThreeRecordsKeepsVerdictAndFacts(Vectors v) {
        classify(v, v.bytes(), cacheOf(v));
        Verdict expected = hello.verdict();
        String facts = hello.toJson(v.name());
        byte[] handshake = HelloBuilder.unframe(v.bytes(), v.bytes().length);
        int n = hello.helloLength() + 4;
        handshake = Arrays.copyOf(handshake, n);
        int[][] cutSets = {{n / 2}, {1}, {n - 1}, {n / 3, 2 * n / 3}, {4, 5}, {38, 39}};
        for (int[] cuts : cutSets) {
            byte[] framed = HelloBuilder.frame(handshake, cuts);
            assertEquals(expected, classify(v, framed, cacheOf(v)), "cuts " + Arrays.toString(cuts));
            String reframed = facts.replaceFirst("\"records\":\\d+", "\"records\":" + (cuts.length + 1));
            assertEquals(reframed, hello.toJson(v.name()), "cuts " + Arrays.toString(cuts));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void everyStrictPrefixIsIncompleteWithAnHonestByteCount(Vectors v) {
        Verdict whole = classify(v, v.bytes(), null);
        int end = v.bytes().length;
        for (int n = 0; n < end; n++) {
            byte[] prefix = Arrays.copyOf(v.bytes(), n);
            assertEquals(Verdict.INCOMPLETE, classify(v, prefix, null), "prefix of " + n + " bytes");
            assertTrue(hello.bytesNeeded() >= 1 && n + hello.bytesNeeded() <= end,
                    "prefix of " + n + " bytes claims to need " + hello.bytesNeeded());
        }
        assertEquals(whole, classify(v, v.bytes(), null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void readingAsTheBytesArriveReachesTheVerdictWhenBytesNeededSaysSo(Vectors v) {
        // A server that reads exactly bytesNeeded more each time must neither stall nor overshoot.
        int have = 0;
        int reads = 0;
        Verdict verdict;
        while ((verdict = classify(v, Arrays.copyOf(v.bytes(), have), null)) == Verdict.INCOMPLETE) {
            have += hello.bytesNeeded();
            assertTrue(have <= v.bytes().length, "asked for bytes beyond the hello");
            reads++;
        }
        assertEquals(v.bytes().length, have);
        assertTrue(reads <= 2 * hello.records() + 2, "too many reads: " + reads);
        assertEquals(classify(v, v.bytes(), null), verdict);
    }
}
