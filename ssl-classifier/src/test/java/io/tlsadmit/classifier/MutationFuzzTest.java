package io.tlsadmit.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A seeded mutation fuzzer over the real-client corpus, run for a bounded time ({@code -Dfuzz.seconds}).
 * Every input is classified from an exact-size slice, so a read outside the region throws; no input may
 * throw, and a well-formed hello must keep its verdict under any re-framing and be INCOMPLETE at every prefix.
 * A failure prints the seed and the input in hex, which reproduce it.
 */
class MutationFuzzTest {
    private static final long SEED = Long.getLong("fuzz.seed", 20261122L);

    private final ClientHello hello = new ClientHello();
    private final ClientHelloClassifier tls13 = new ClientHelloClassifier(ServerPolicy.DEFAULT);
    private final ClientHelloClassifier tls12 = new ClientHelloClassifier(new ServerPolicy(TlsVersion.TLS1_2, 16384));

    @Test
    void mutatedHellosNeverThrowNeverReadOutsideAndKeepTheirVerdictUnderReframing() {
        List<byte[]> corpus = new ArrayList<>();
        Vectors.all().forEach(v -> corpus.add(v.bytes()));
        corpus.add(HelloBuilder.tls13().alpn("h2").earlyData().pskModes().preSharedKey(3).build(30, 31));
        corpus.add(HelloBuilder.tls12().sessionId(HelloBuilder.filled(32, 3)).sessionTicket(new byte[90]).build());

        long seconds = Long.getLong("fuzz.seconds", 10);
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        SplittableRandom random = new SplittableRandom(SEED);
        long inputs = 0;
        int wellFormed = 0;
        while (System.nanoTime() < deadline || inputs < 10_000) {
            byte[] input = mutate(corpus.get(random.nextInt(corpus.size())), random);
            inputs++;
            try {
                for (ClientHelloClassifier classifier : new ClientHelloClassifier[] {tls13, tls12}) {
                    Verdict verdict = classify(classifier, input);
                    if (verdict.isHandshake()) {
                        wellFormed++;
                        checkReframing(classifier, input, verdict, random);
                    }
                }
            } catch (RuntimeException | AssertionError e) {
                fail("seed " + SEED + ", input #" + inputs + ": " + hex(input), e);
            }
        }
        System.out.printf("fuzz: %d inputs in %d s, %d well-formed verdicts%n", inputs, seconds, wellFormed);
        assertTrue(wellFormed > inputs / 100, "the mutator must still produce well-formed hellos");
    }

    private Verdict classify(ClientHelloClassifier classifier, byte[] input) {
        return classifier.classify(ByteBuffer.wrap(input).slice().asReadOnlyBuffer(), hello);
    }

    private void checkReframing(ClientHelloClassifier classifier, byte[] input, Verdict verdict, SplittableRandom random) {
        int end = hello.helloLength() + 4;
        byte[] handshake = Arrays.copyOf(HelloBuilder.unframe(input, input.length), end);
        int[] cuts = random.ints(random.nextInt(1, 4), 1, end).sorted().distinct().toArray();
        byte[] framed = HelloBuilder.frame(handshake, cuts);
        assertEquals(verdict, classify(classifier, framed), "re-framed at " + Arrays.toString(cuts));
        int prefix = random.nextInt(framed.length);
        assertEquals(Verdict.INCOMPLETE, classify(classifier, Arrays.copyOf(framed, prefix)), "prefix " + prefix);
    }

    /** One to four edits of the kinds that break parsers: bit flips, length fields, truncation, splices. */
    static byte[] mutate(byte[] seed, SplittableRandom random) {
        byte[] b = seed.clone();
        int edits = random.nextInt(1, 5);
        for (int i = 0; i < edits && b.length > 0; i++) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(7)) {
                case 0 -> b[at] ^= (byte) (1 << random.nextInt(8));
                case 1 -> b[at] = (byte) random.nextInt(256);
                case 2 -> b[at] = (byte) (random.nextBoolean() ? 0 : 0xff);
                case 3 -> b[at] += (byte) random.nextInt(-3, 4);
                case 4 -> b = Arrays.copyOf(b, at);
                case 5 -> {
                    byte[] longer = new byte[b.length + 1];
                    System.arraycopy(b, 0, longer, 0, at);
                    longer[at] = (byte) random.nextInt(256);
                    System.arraycopy(b, at, longer, at + 1, b.length - at);
                    b = longer;
                }
                default -> {
                    byte[] shorter = new byte[b.length - 1];
                    System.arraycopy(b, 0, shorter, 0, at);
                    System.arraycopy(b, at + 1, shorter, at, b.length - at - 1);
                    b = shorter;
                }
            }
        }
        return b;
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 2);
        for (byte x : b) {
            s.append(String.format("%02x", x));
        }
        return s.toString();
    }
}
