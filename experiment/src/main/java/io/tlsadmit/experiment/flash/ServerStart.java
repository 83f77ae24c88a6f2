package io.tlsadmit.experiment.flash;

import java.util.Arrays;
import java.util.Locale;

/** What the flash crowd's fresh server did between its start and the 5 s idle before the crowd. */
public enum ServerStart {
    /** Nothing: the crowd meets code nobody has run yet (the scenario). */
    COLD,
    /** A sweep step's warm-up first: RUBiS users at 5/s for {@code --server-warmup-seconds}, from Gatling. */
    WARM,
    /**
     * The gated modes' connectors request RUBiS pages themselves at start ({@code warmUpRequests}, for
     * {@code --server-warmup-seconds}) before the server reports started; modes without the gate start cold.
     */
    WARM_UP_REQUESTS;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Every label, in declaration order: what the command line accepts. */
    public static String[] labels() {
        return Arrays.stream(values()).map(ServerStart::label).toArray(String[]::new);
    }

    /** The start with this label (one of {@link #labels()}). */
    public static ServerStart ofLabel(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
}
