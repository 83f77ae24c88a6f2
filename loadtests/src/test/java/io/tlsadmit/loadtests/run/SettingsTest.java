package io.tlsadmit.loadtests.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void defaultsAreThePapersClient() {
        Settings settings = Settings.from(new Properties());
        assertEquals("browsing", settings.mix());
        assertEquals(Settings.ArrivalModel.OPEN, settings.model());
        assertEquals(Duration.ofSeconds(10), settings.requestTimeout());
        assertEquals(1.0, settings.thinkTimeScale());
        assertEquals(1000, settings.maxTransitions());
        assertEquals(true, settings.poissonArrivals());
    }

    @Test
    void propertiesOverrideDefaults() {
        Properties p = new Properties();
        p.setProperty("rubis.model", "CLOSED");
        p.setProperty("rubis.concurrentUsers", "40");
        p.setProperty("rubis.mix", "bidding");
        p.setProperty("rubis.durationSec", "2.5");
        Settings settings = Settings.from(p);
        assertEquals(Settings.ArrivalModel.CLOSED, settings.model());
        assertEquals(40, settings.concurrentUsers());
        assertEquals("bidding", settings.mix());
        assertEquals(Duration.ofMillis(2500), settings.duration());
    }

    @Test
    void aBadValueNamesItsProperty() {
        assertEquals("rubis.usersPerSec must be a number, got 'many'", rejected("rubis.usersPerSec", "many"));
        assertEquals("rubis.thinkTimeScale must be in [0.0, 100.0], got -1", rejected("rubis.thinkTimeScale", "-1"));
        assertEquals("rubis.model must be one of open, closed, got 'ramp'", rejected("rubis.model", "ramp"));
    }

    private static String rejected(String name, String value) {
        Properties p = new Properties();
        p.setProperty(name, value);
        return assertThrows(IllegalArgumentException.class, () -> Settings.from(p)).getMessage();
    }
}
