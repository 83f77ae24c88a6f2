package io.tlsadmit.loadtests.run;

import java.util.ArrayList;
import java.util.List;

/**
 * Distinct loopback source addresses for the virtual users. On one machine every user otherwise connects from
 * 127.0.0.1, and a server that keys anything on the client's address (the gate's session grace admits a just
 * admitted host's next few new connections on credit) would see one host making every connection. Gatling binds
 * each virtual user to one address of the list, round robin; Linux routes all of 127.0.0.0/8 to the loopback
 * interface, so no set-up is needed.
 */
public final class LoopbackSources {

    /** 127.0.1.1 to 127.0.255.254: enough that at the highest arrival rates an address comes back after seconds. */
    public static final int MAX = 255 * 254;

    private LoopbackSources() {
    }

    /** The first {@code count} addresses 127.0.x.y, x from 1, y in 1..254 (never 127.0.0.1, never a .0 or .255). */
    public static List<String> first(int count) {
        if (count < 0 || count > MAX) {
            throw new IllegalArgumentException("source addresses must be in [0, " + MAX + "], got " + count);
        }
        List<String> addresses = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            addresses.add("127.0." + (1 + i / 254) + "." + (1 + i % 254));
        }
        return addresses;
    }
}
