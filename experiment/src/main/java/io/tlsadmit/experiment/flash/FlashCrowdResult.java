package io.tlsadmit.experiment.flash;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.experiment.Workload;

/**
 * One mode's flash crowd: a fresh server, 5 s idle, then {@code usersPerSec} new users/s at once.
 *
 * @param steadySource   where {@code recovery}'s steady value came from: {@code sweep} (the mode's sweep step at the
 *                       same users/s) or {@code window-tail} (the last 10 s of a window twice as long)
 * @param serverRecovery the gate's view at 100 ms resolution, null where there is no gate
 */
public record FlashCrowdResult(Mode mode, Workload workload, double usersPerSec, double[] repliesPerSecond,
        Recovery recovery, String steadySource, ServerRecovery serverRecovery) {
}
