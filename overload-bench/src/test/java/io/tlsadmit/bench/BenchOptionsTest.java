package io.tlsadmit.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void noOptionsIsTheDocumentedDefaultRun() {
        BenchOptions options = BenchOptions.parse(new String[0]);
        assertEquals(List.of("off", "static", "adaptive"), options.modes());
        assertArrayEquals(new double[] {0.5, 1, 2, 4, 8}, options.multipliers());
        assertEquals(60, options.stepSeconds());
        assertEquals("rsa2048", options.key());
        assertEquals("1.3", options.tls());
        assertFalse(options.cpuChange());
        assertEquals(0, options.capacity(), "0 = calibrate");
        assertEquals("tomcat", options.server());
    }

    @Test
    void theNettyServerTakesAnEngineAndWritesBesideTomcatsResults() {
        BenchOptions options = BenchOptions.parse(new String[] {"--server", "netty", "--engine", "openssl"});
        assertEquals("netty", options.server());
        assertEquals("openssl", options.engine());
        assertTrue(options.out().getFileName().toString().endsWith("-overload-netty-openssl"), options.out().toString());
        assertEquals("jdk", BenchOptions.parse(new String[] {"--server", "netty"}).engine());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--engine", "openssl"})).getMessage().contains("--server netty"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--server", "jetty"})).getMessage().contains("jetty"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--server", "netty", "--engine", "gnutls"})).getMessage()
                .contains("gnutls"));
    }

    @Test
    void optionsOverrideTheDefaults() {
        BenchOptions options = BenchOptions.parse(new String[] {"--key", "rsa4096", "--cpu-change", "--modes",
                "off,adaptive", "--multipliers", "1,4", "--out", "x/y"});
        assertEquals("rsa4096", options.key());
        assertTrue(options.cpuChange());
        assertEquals(List.of("off", "adaptive"), options.modes());
        assertArrayEquals(new double[] {1, 4}, options.multipliers());
        assertEquals(Path.of("x/y"), options.out());
    }

    @Test
    void aRunIsOneRoundUnlessToldMoreAndNeverNone() {
        assertEquals(1, BenchOptions.parse(new String[0]).rounds());
        assertEquals(3, BenchOptions.parse(new String[] {"--rounds", "3"}).rounds());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--rounds", "0"})).getMessage().contains("--rounds"));
    }

    @Test
    void theDriverOffersOnlyX25519UnlessTheCertificateNeedsItsCurve() {
        assertEquals("x25519", BenchOptions.parse(new String[] {"--key", "rsa4096"}).clientGroups());
        assertEquals(BenchOptions.JDK_GROUPS, BenchOptions.parse(new String[] {"--key", "ec"}).clientGroups());
        assertEquals("x25519,secp256r1",
                BenchOptions.parse(new String[] {"--key", "ec", "--client-groups", "x25519,secp256r1"}).clientGroups());
        assertEquals(BenchOptions.JDK_GROUPS,
                BenchOptions.parse(new String[] {"--client-groups", "jdk"}).clientGroups());
        String message = assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--key", "ec", "--client-groups", "x25519"})).getMessage();
        assertTrue(message.contains("--client-groups") && message.contains("secp256r1"), message);
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--client-groups", " "})).getMessage().contains("empty"));
    }

    @Test
    void helpIsAskedForAnywhereOnTheLine() {
        assertTrue(BenchOptions.wantsHelp(new String[] {"--help"}));
        assertTrue(BenchOptions.wantsHelp(new String[] {"--key", "ec", "-h"}));
        assertFalse(BenchOptions.wantsHelp(new String[] {"--key", "ec"}));
    }

    @Test
    void badInputNamesWhatIsWrong() {
        assertEquals("unknown option --speed",
                assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[] {"--speed", "9"}))
                        .getMessage());
        assertEquals("--step-seconds needs a value",
                assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[] {"--step-seconds"}))
                        .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--key", "dsa"})).getMessage().contains("dsa"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> BenchOptions.parse(new String[] {"--modes", "off,turbo"})).getMessage().contains("turbo"));
    }
}
