package io.tlsadmit.classifier;

import static io.tlsadmit.classifier.HelloBuilder.bytes;
import static io.tlsadmit.classifier.HelloBuilder.filled;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ClientHelloClassifierTest {
    private static final ClientHelloClassifier TLS13_SERVER = new ClientHelloClassifier(ServerPolicy.DEFAULT);
    private static final ClientHelloClassifier TLS12_SERVER =
            new ClientHelloClassifier(new ServerPolicy(TlsVersion.TLS1_2, 16384));
    private static final SessionIdLookup EMPTY_CACHE = (id, length) -> false;

    private final ClientHello hello = new ClientHello();

    /**
     * Classifies the bytes from an exact-size slice of a larger array, so that any read outside the
     * region throws instead of seeing the neighbours.
     */
    private Verdict classify(ClientHelloClassifier classifier, byte[] bytes, SessionIdLookup lookup) {
        byte[] padded = new byte[bytes.length + 16];
        Arrays.fill(padded, (byte) 0x16);
        System.arraycopy(bytes, 0, padded, 8, bytes.length);
        ByteBuffer region = ByteBuffer.wrap(padded, 8, bytes.length).slice();
        Verdict verdict = classifier.classify(region, hello, lookup);
        assertEquals(0, region.position(), "the buffer's position must not move");
        assertEquals(bytes.length, region.limit(), "the buffer's limit must not move");
        return verdict;
    }

    private Verdict classify(byte[] bytes) {
        return classify(TLS13_SERVER, bytes, null);
    }

    @Nested
    class Tls13Path {
        @Test
        void newTls13HelloWithRandomCompatibilitySessionIdIsNew() {
            assertEquals(Verdict.NEW, classify(HelloBuilder.tls13().build()));
            assertEquals(32, hello.sessionIdLength());
            assertTrue(hello.offersTls13());
        }

        @Test
        void preSharedKeyIsResumePsk() {
            assertEquals(Verdict.RESUME_PSK, classify(HelloBuilder.tls13().pskModes().preSharedKey(2).build()));
            assertEquals(2, hello.pskIdentities());
        }

        @Test
        void ticketOrSessionIdOfferedToATls13ServerIsNewBecauseTls13CannotResumeTls12() {
            byte[] hello12Resume = HelloBuilder.tls13().sessionTicket(filled(160, 7)).build();
            assertEquals(Verdict.NEW, classify(hello12Resume));
            assertEquals(160, hello.ticketLength());
        }

        @Test
        void earlyDataIsReportedWithThePsk() {
            assertEquals(Verdict.RESUME_PSK,
                    classify(HelloBuilder.tls13().earlyData().pskModes().preSharedKey(1).build()));
            assertTrue(hello.earlyData());
        }
    }

    @Nested
    class Tls12Path {
        @Test
        void tls12ClientWithoutSessionIdOrTicketIsNew() {
            assertEquals(Verdict.NEW, classify(HelloBuilder.tls12().sessionTicket(new byte[0]).build()));
            assertEquals(0, hello.ticketLength(), "an empty ticket extension asks for a new ticket");
        }

        @Test
        void nonEmptyTicketIsResumeTicket() {
            assertEquals(Verdict.RESUME_TICKET,
                    classify(HelloBuilder.tls12().sessionId(filled(32, 1)).sessionTicket(filled(200, 9)).build()));
        }

        @Test
        void sessionIdIsResumeSessionIdWithoutALookup() {
            assertEquals(Verdict.RESUME_SESSION_ID, classify(HelloBuilder.tls12().sessionId(filled(32, 1)).build()));
        }

        @Test
        void sessionIdTheCacheDoesNotHoldIsNew() {
            byte[] bytes = HelloBuilder.tls12().sessionId(filled(32, 1)).build();
            assertEquals(Verdict.NEW, classify(TLS13_SERVER, bytes, EMPTY_CACHE));
        }

        @Test
        void sessionIdTheCacheHoldsIsResumeSessionIdAndTheLookupSeesTheExactId() {
            byte[] id = new byte[32];
            for (int i = 0; i < id.length; i++) {
                id[i] = (byte) (i * 7);
            }
            byte[] bytes = HelloBuilder.tls12().sessionId(id).build();
            SessionIdLookup cache = (candidate, length) -> Arrays.equals(id, Arrays.copyOf(candidate, length));
            assertEquals(Verdict.RESUME_SESSION_ID, classify(TLS13_SERVER, bytes, cache));
        }

        @Test
        void tls13ClientAtATls12ServerResumesWithItsTicket() {
            byte[] bytes = HelloBuilder.tls13().sessionTicket(filled(160, 7)).pskModes().preSharedKey(1).build();
            assertEquals(Verdict.RESUME_PSK, classify(bytes));
            assertEquals(Verdict.RESUME_TICKET, classify(TLS12_SERVER, bytes, null));
        }

        @Test
        void tls13ClientCompatibilitySessionIdAtATls12ServerLooksLikeAResumptionUntilTheCacheSaysNo() {
            byte[] bytes = HelloBuilder.tls13().build();
            assertEquals(Verdict.RESUME_SESSION_ID, classify(TLS12_SERVER, bytes, null));
            assertEquals(Verdict.NEW, classify(TLS12_SERVER, bytes, EMPTY_CACHE));
        }

        @Test
        void preSharedKeyMeansNothingOnTheTls12Path() {
            byte[] bytes = HelloBuilder.tls13().sessionId(new byte[0]).pskModes().preSharedKey(1).build();
            assertEquals(Verdict.NEW, classify(TLS12_SERVER, bytes, null));
        }

        @Test
        void helloWithoutExtensionsIsAWellFormedNewHandshake() {
            assertEquals(Verdict.NEW, classify(new HelloBuilder().withoutExtensions().build()));
            assertEquals(0, hello.extensions());
        }
    }

    @Nested
    class Facts {
        @Test
        void reportsSniAlpnVersionsAndCounts() {
            byte[] bytes = HelloBuilder.tls13().alpn("h2", "http/1.1").build();
            classify(bytes);
            assertEquals("localhost", hello.sni());
            assertEquals(List.of("h2", "http/1.1"), hello.alpn());
            assertEquals(TlsVersion.TLS1_2, hello.legacyVersion());
            assertEquals(TlsVersion.TLS1_3, hello.clientMaxVersion());
            assertEquals(1, hello.records());
            assertEquals(5, hello.extensions());
            assertEquals(bytes.length - 9, hello.helloLength());
            assertEquals(-1, hello.ticketLength());
            assertFalse(hello.earlyData());
        }

        @Test
        void greaseVersionsAndExtensionsAreIgnored() {
            byte[] bytes = new HelloBuilder().extension(0x1a1a, new byte[0])
                    .supportedVersions(0x7a7a, TlsVersion.TLS1_3, TlsVersion.TLS1_2)
                    .extension(0xfafa, bytes(0)).build();
            assertEquals(Verdict.NEW, classify(bytes));
            assertEquals(TlsVersion.TLS1_3, hello.clientMaxVersion());
        }

        @Test
        void withoutSupportedVersionsTheLegacyVersionIsTheClientsMaximum() {
            classify(HelloBuilder.tls12().legacyVersion(TlsVersion.TLS1_1).build());
            assertEquals(TlsVersion.TLS1_1, hello.clientMaxVersion());
            assertFalse(hello.offersTls13());
        }

        @Test
        void copiesTheSessionIdForTheCaller() {
            byte[] id = filled(16, 0x42);
            classify(HelloBuilder.tls12().sessionId(id).build());
            byte[] copy = new byte[32];
            assertEquals(16, hello.copySessionId(copy));
            assertArrayEquals(id, Arrays.copyOf(copy, 16));
        }

        @Test
        void onlyTheFirstEightAlpnNamesAreKept() {
            classify(HelloBuilder.tls12().alpn("a", "b", "c", "d", "e", "f", "g", "h", "i", "j").build());
            assertEquals(List.of("a", "b", "c", "d", "e", "f", "g", "h"), hello.alpn());
        }

        @Test
        void theJsonLineHasEveryKeyInTheDocumentedOrder() {
            classify(HelloBuilder.tls13().alpn("h2").build());
            String json = hello.toJson("a \"b\".bin");
            assertTrue(json.startsWith("{\"file\":\"a \\\"b\\\".bin\",\"verdict\":\"NEW\",\"bytes_needed\":0,"
                    + "\"sni\":\"localhost\",\"alpn\":[\"h2\"],\"legacy_version\":\"TLSv1.2\","
                    + "\"client_max_version\":\"TLSv1.3\",\"session_id_len\":32,\"ticket_len\":-1,"
                    + "\"psk_identities\":0,\"early_data\":false,\"hello_length\":"), json);
            assertTrue(json.endsWith(",\"records\":1,\"extensions\":5}"), json);
        }

        @Test
        void nonPrintableSniBytesAreEscapedInJson() {
            classify(new HelloBuilder().sni("a\u0001\u00e9").build());
            assertTrue(hello.toJson("f").contains("\"sni\":\"a\\u0001\\u00e9\""), hello.toJson("f"));
        }

        @Test
        void factsOfAnEarlierCallDoNotLeakIntoTheNext() {
            classify(HelloBuilder.tls13().alpn("h2").earlyData().pskModes().preSharedKey(1).build());
            classify("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
            assertNull(hello.sni());
            assertTrue(hello.alpn().isEmpty());
            assertEquals(0, hello.pskIdentities());
            assertFalse(hello.earlyData());
            assertEquals(0, hello.records());
        }
    }

    @Nested
    class NotTls {
        @Test
        void plainHttpIsNotTls() {
            assertEquals(Verdict.NOT_TLS, classify("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        }

        @Test
        void aSingleNonTlsByteIsEnough() {
            assertEquals(Verdict.NOT_TLS, classify(bytes('P')));
        }

        @Test
        void handshakeTypeWithAVersionOtherThan3IsNotTls() {
            assertEquals(Verdict.NOT_TLS, classify(bytes(0x16, 0x02, 0x00, 0x00, 0x10)));
        }

        @Test
        void sslv2CompatibleHelloIsSslv2() {
            assertEquals(Verdict.SSLV2, classify(bytes(0x80, 0x2e, 0x01, 0x03, 0x01, 0x00, 0x15)));
        }

        @Test
        void highBitWithoutAnSslv2ClientHelloIsNotTls() {
            assertEquals(Verdict.NOT_TLS, classify(bytes(0x80, 0x2e, 0x04)));
        }
    }

    @Nested
    class Incomplete {
        @Test
        void nothingYetNeedsARecordHeader() {
            assertEquals(Verdict.INCOMPLETE, classify(new byte[0]));
            assertEquals(5, hello.bytesNeeded());
        }

        @Test
        void partialRecordHeaderNeedsTheRestOfIt() {
            assertEquals(Verdict.INCOMPLETE, classify(bytes(0x16, 0x03)));
            assertEquals(3, hello.bytesNeeded());
        }

        @Test
        void partialSslv2HeaderWaits() {
            assertEquals(Verdict.INCOMPLETE, classify(bytes(0x80)));
            assertEquals(2, hello.bytesNeeded());
        }

        @Test
        void insideARecordTheRestOfTheRecordIsNeeded() {
            byte[] whole = HelloBuilder.tls13().build();
            assertEquals(Verdict.INCOMPLETE, classify(Arrays.copyOf(whole, 100)));
            assertEquals(whole.length - 100, hello.bytesNeeded());
        }

        @Test
        void atARecordBoundaryTheNextHeaderIsNeeded() {
            byte[] whole = HelloBuilder.tls13().build(40);
            assertEquals(Verdict.INCOMPLETE, classify(Arrays.copyOf(whole, 45)));
            assertEquals(5, hello.bytesNeeded());
        }

        @Test
        void theHelloEndingInsideALongerRecordNeedsOnlyTheHello() {
            byte[] handshake = HelloBuilder.tls13().handshake();
            byte[] framed = HelloBuilder.frame(Arrays.copyOf(handshake, handshake.length + 50));
            assertEquals(Verdict.INCOMPLETE, classify(Arrays.copyOf(framed, 60)));
            assertEquals(handshake.length + 5 - 60, hello.bytesNeeded());
            assertEquals(Verdict.NEW, classify(Arrays.copyOf(framed, handshake.length + 5)),
                    "bytes after the hello are not needed");
        }

        @Test
        void beforeTheHandshakeHeaderOnlyItsBytesAreNeededBecauseTheRecordMayHoldMoreThanTheHello() {
            byte[] handshake = HelloBuilder.tls13().handshake();
            byte[] framed = HelloBuilder.frame(Arrays.copyOf(handshake, handshake.length + 500));
            assertEquals(Verdict.INCOMPLETE, classify(Arrays.copyOf(framed, 5)));
            assertEquals(4, hello.bytesNeeded());
            assertEquals(Verdict.INCOMPLETE, classify(Arrays.copyOf(framed, 7)));
            assertEquals(2, hello.bytesNeeded());
            assertEquals(Verdict.INCOMPLETE, classify(Arrays.copyOf(framed, 9)));
            assertEquals(handshake.length - 4, hello.bytesNeeded());
        }

        @Test
        void everyStrictPrefixIsIncompleteAndTheWholeIsNot() {
            byte[] whole = HelloBuilder.tls13().alpn("h2").pskModes().preSharedKey(2).build(1, 7, 90, 91);
            for (int n = 0; n < whole.length; n++) {
                assertEquals(Verdict.INCOMPLETE, classify(Arrays.copyOf(whole, n)), "prefix of " + n);
                assertTrue(hello.bytesNeeded() >= 1, "bytes needed for prefix of " + n);
                assertTrue(hello.bytesNeeded() <= whole.length - n, "bytes needed for prefix of " + n);
            }
            assertEquals(Verdict.RESUME_PSK, classify(whole));
        }
    }

    @Nested
    class Fragmentation {
        @Test
        void helloSplitOverRecordsAtEveryOffsetKeepsItsVerdictAndFacts() {
            HelloBuilder builder = HelloBuilder.tls13().alpn("h2", "http/1.1").pskModes().preSharedKey(1);
            byte[] handshake = builder.handshake();
            classify(builder.build());
            String expected = hello.toJson("x").replace("\"records\":1", "\"records\":2");
            for (int cut = 1; cut < handshake.length; cut++) {
                assertEquals(Verdict.RESUME_PSK, classify(HelloBuilder.frame(handshake, cut)), "cut at " + cut);
                assertEquals(expected, hello.toJson("x"), "cut at " + cut);
            }
        }

        @Test
        void oneByteRecordsStillParse() {
            byte[] handshake = HelloBuilder.tls13().build();
            handshake = HelloBuilder.unframe(handshake, handshake.length);
            int[] cuts = new int[handshake.length - 1];
            for (int i = 0; i < cuts.length; i++) {
                cuts[i] = i + 1;
            }
            assertEquals(Verdict.NEW, classify(HelloBuilder.frame(handshake, cuts)));
            assertEquals(handshake.length, hello.records());
        }
    }

    @Nested
    class Malformed {
        private void assertMalformed(byte[] bytes, String reasonPart) {
            assertEquals(Verdict.MALFORMED, classify(bytes));
            assertNotNull(hello.malformedReason());
            assertTrue(hello.malformedReason().contains(reasonPart), hello.malformedReason());
        }

        @Test
        void recordLongerThan2To14IsRefusedFromTheHeaderAlone() {
            assertMalformed(bytes(0x16, 0x03, 0x01, 0x40, 0x01), "2^14");
        }

        @Test
        void emptyRecordIsMalformed() {
            assertMalformed(bytes(0x16, 0x03, 0x01, 0x00, 0x00), "2^14");
        }

        @Test
        void handshakeOtherThanClientHelloIsMalformed() {
            assertMalformed(bytes(0x16, 0x03, 0x01, 0x00, 0x04, 0x02), "not a ClientHello");
        }

        @Test
        void declaredHelloOverTheLimitIsRefusedFromTheHandshakeHeader() {
            assertMalformed(bytes(0x16, 0x03, 0x01, 0x00, 0x04, 0x01, 0x00, 0x40, 0x01), "longer than the server accepts");
            ClientHelloClassifier strict = new ClientHelloClassifier(new ServerPolicy(TlsVersion.TLS1_3, 256));
            byte[] big = HelloBuilder.tls13().extension(21, new byte[300]).build();
            assertEquals(Verdict.MALFORMED, strict.classify(ByteBuffer.wrap(big, 0, 9), hello));
        }

        @Test
        void repeatedExtensionIsMalformed() {
            assertMalformed(HelloBuilder.tls12().extension(10, bytes(0, 2, 0, 0x17)).build(), "repeats");
        }

        @Test
        void preSharedKeyThatIsNotLastIsMalformed() {
            assertMalformed(HelloBuilder.tls13().preSharedKey(1).pskModes().build(), "not the last");
        }

        @Test
        void sessionIdOver32BytesIsMalformed() {
            assertMalformed(HelloBuilder.tls12().sessionId(filled(33, 1)).build(), "32 bytes");
        }

        @Test
        void oddOrEmptyCipherSuitesAreMalformed() {
            assertMalformed(HelloBuilder.tls12().cipherSuites(bytes(0x13)).build(), "cipher suite");
            assertMalformed(HelloBuilder.tls12().cipherSuites(new byte[0]).build(), "cipher suite");
        }

        @Test
        void missingCompressionMethodIsMalformed() {
            assertMalformed(HelloBuilder.tls12().compression(new byte[0]).build(), "compression");
        }

        @Test
        void extensionsLengthThatDisagreesWithTheHelloIsMalformed() {
            byte[] bytes = HelloBuilder.tls12().build();
            int extensionsLengthAt = 9 + 2 + 32 + 1 + 2 + 4 + 1 + 1;
            bytes[extensionsLengthAt + 1]++;
            assertMalformed(bytes, "extensions do not end");
        }

        @Test
        void extensionOverrunningTheBlockIsMalformed() {
            byte[] bytes = HelloBuilder.tls12().extension(21, new byte[4]).build();
            bytes[bytes.length - 5]++; // the last extension's length
            assertMalformed(bytes, "overruns");
        }

        @Test
        void anotherRecordTypeInsideTheHelloIsMalformed() {
            byte[] bytes = HelloBuilder.tls13().build(20);
            bytes[5 + 20] = 0x15; // the second record becomes an alert
            assertMalformed(bytes, "another type");
        }

        @Test
        void nonEmptyEarlyDataIsMalformed() {
            assertMalformed(HelloBuilder.tls13().extension(42, bytes(1)).build(), "early_data");
        }

        @Test
        void brokenPreSharedKeyStructureIsMalformed() {
            assertMalformed(HelloBuilder.tls13().extension(41, bytes(0, 0, 0, 0)).build(), "identities");
        }

        @Test
        void emptyHostNameIsMalformed() {
            assertMalformed(new HelloBuilder().extension(0, bytes(0, 3, 0, 0, 0)).build(), "host_name");
        }

        @Test
        void supportedVersionsWithOddLengthIsMalformed() {
            assertMalformed(HelloBuilder.tls12().extension(43, bytes(3, 3, 4, 3)).build(), "supported_versions");
        }

        @Test
        void aMalformedHelloIsReportedBeforeItsLastBytesArrive() {
            byte[] bytes = HelloBuilder.tls12().extension(10, bytes(0, 2, 0, 0x17)).extension(21, new byte[400]).build();
            assertEquals(Verdict.MALFORMED, classify(Arrays.copyOf(bytes, bytes.length - 300)));
        }
    }

    @Test
    void policyRefusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new ServerPolicy(0x0302, 16384));
        assertThrows(IllegalArgumentException.class, () -> new ServerPolicy(TlsVersion.TLS1_3, 10));
        assertThrows(IllegalArgumentException.class, () -> ServerPolicy.of("1.4", 16384));
        assertEquals(TlsVersion.TLS1_2, ServerPolicy.of("TLSv1.2", 16384).maxVersion());
    }

    @Test
    void directBuffersClassifyLikeHeapBuffers() {
        byte[] bytes = HelloBuilder.tls13().alpn("h2").build();
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 10);
        direct.position(10);
        direct.put(bytes);
        direct.position(10);
        assertEquals(Verdict.NEW, TLS13_SERVER.classify(direct, hello));
        assertEquals("localhost", hello.sni());
        assertEquals(10, direct.position());
    }
}
