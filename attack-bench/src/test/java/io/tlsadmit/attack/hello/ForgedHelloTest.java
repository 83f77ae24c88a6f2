package io.tlsadmit.attack.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.classifier.ClientHello;
import io.tlsadmit.classifier.ClientHelloClassifier;
import io.tlsadmit.classifier.ServerPolicy;
import io.tlsadmit.classifier.Verdict;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The forged hellos must look to our own classifier exactly like the resumptions they pretend to be. */
class ForgedHelloTest {
    private final ClientHelloClassifier classifier = new ClientHelloClassifier(ServerPolicy.DEFAULT);

    @Test
    void forgedPskIsAWellFormedTls13Resumption() {
        Random random = new Random(1);
        for (int i = 0; i < 200; i++) {
            ClientHello facts = new ClientHello();
            byte[] hello = ForgedHello.tls13Psk(random);
            assertEquals(Verdict.RESUME_PSK, classifier.classify(ByteBuffer.wrap(hello), facts), facts.toString());
            assertEquals(1, facts.pskIdentities());
            assertTrue(facts.offersTls13());
            assertEquals("localhost", facts.sni());
            assertEquals(hello.length - 9, facts.helloLength());
        }
    }

    @Test
    void forgedTicketIsATls12TicketResumption() {
        ClientHello facts = new ClientHello();
        byte[] hello = ForgedHello.tls12Ticket(new Random(2), 160);
        assertEquals(Verdict.RESUME_TICKET, classifier.classify(ByteBuffer.wrap(hello), facts), facts.toString());
        assertEquals(160, facts.ticketLength());
        assertEquals(0, facts.sessionIdLength());
        assertEquals(0x0303, facts.clientMaxVersion());
    }

    @Test
    void honestNewHelloIsNewAndItsStartIsIncomplete() {
        byte[] hello = ForgedHello.tls13New(new Random(3));
        assertEquals(Verdict.NEW, classifier.classify(ByteBuffer.wrap(hello), new ClientHello()));
        // what a slow client sends before going silent
        assertEquals(Verdict.INCOMPLETE, classifier.classify(ByteBuffer.wrap(Arrays.copyOf(hello, 60)), new ClientHello()));
    }

    @Test
    void everyHelloIsDifferent() {
        Random random = new Random(4);
        assertTrue(!Arrays.equals(ForgedHello.tls13Psk(random), ForgedHello.tls13Psk(random)));
    }
}
