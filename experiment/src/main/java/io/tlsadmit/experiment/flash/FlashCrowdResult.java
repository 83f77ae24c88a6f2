package io.tlsadmit.experiment.flash;

import io.tlsadmit.experiment.Mode;
import io.tlsadmit.experiment.Workload;

/**
 * One mode's flash crowd: a fresh server, 5 s idle, then {@code usersPerSec} new users/s at once.
 *
 * @param steadySource   where {@code recovery}'s steady value came from: {@code sweep} (the mode's sweep step at the
 *                       same users/s) or {@code window-tail} (the last 10 s of a window twice as long)
 * @param serverRecovery the gate's view at 100 ms resolution, null where there is no gate
 * @param served         what the crowd got over the whole window, whether or not throughput ever held: a mode that
 *                       never reaches its warm throughput may still serve many more of the crowd than another
 * @param serverStart    what the server did before its idle seconds: nothing, or one of the warm-ups
 */
public record FlashCrowdResult(Mode mode, Workload workload, double usersPerSec, double[] repliesPerSecond,
        Recovery recovery, String steadySource, ServerRecovery serverRecovery, Served served,
        ServerStart serverStart) {

    /** Sessions completed and client timeouts summed over the window's seconds. */
    public record Served(long sessionsCompleted, long timeouts) {
    }
}
