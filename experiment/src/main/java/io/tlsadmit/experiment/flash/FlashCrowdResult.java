package io.tlsadmit.experiment.flash;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.experiment.Workload;

/** One mode's flash crowd: a fresh server, 5 s idle, then {@code usersPerSec} new users/s at once. */
public record FlashCrowdResult(Mode mode, Workload workload, double usersPerSec, double[] repliesPerSecond,
        Recovery recovery) {
}
