package io.tlsadmit.cpumanager;

import io.tlsadmit.cpumanager.config.Application;
import io.tlsadmit.cpumanager.probe.GateProbe;
import io.tlsadmit.cpumanager.probe.GateReading;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

/** What the manager knows of one server between periods. */
final class ServerState {

    final Application application;
    long pid = -1;
    GateProbe probe;
    /** An attach still under way (it can outlast a period); null when none. */
    Future<GateProbe> attaching;
    GateReading lastReading;
    /** The request the policy uses: the last one the gate gave, or the adopted assignment until then. */
    double request;
    boolean answering;
    /** Periods in a row without an answer; after {@link CpuManager#GRACE_PERIODS} its CPUs go to the pool. */
    int silentPeriods;
    double assigned;
    /** What the policy weighed in the last period ({@code policy.Demand}, damped by {@code policy.Damping}). */
    double claimed;
    /** Its claims since its gate last began answering without a gap, newest last, for {@code policy.Damping}. */
    final List<Double> recentClaims = new ArrayList<>();
    /** Its quota: the assignment and its part of what other processes used ({@code policy.Distribution}). */
    double quota;
    List<Integer> cpuSet = List.of();
    /** The set last given to this pid, so that taskset runs only when it changes. */
    List<Integer> pinnedSet = List.of();
    long pinnedPid = -1;
    /**
     * The {@code CpusAssigned} waiting to reach the gate, null when none: a slow gate gets only the newest value
     * instead of a queue of stale ones.
     */
    final AtomicReference<Double> unsentAssignment = new AtomicReference<>();
    /** CPU seconds of earlier processes of this server, so the counter survives restarts. */
    double cpuSecondsBefore;
    double cpuSecondsOfPid;

    ServerState(Application application, double initialRequest) {
        this.application = application;
        this.request = initialRequest;
    }

    String name() {
        return application.name();
    }

    /** The pid in the pid file if that process is alive, else -1. */
    long readPid() {
        try {
            String text = Files.readString(application.pidFile()).trim();
            long candidate = Long.parseLong(text);
            Optional<ProcessHandle> process = ProcessHandle.of(candidate);
            return process.isPresent() && process.get().isAlive() ? candidate : -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    boolean alive() {
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    void closeProbe() {
        if (probe != null) {
            probe.close();
            probe = null;
        }
    }

    /** Reads the process's CPU clock; a new pid starts a new segment of the counter. */
    void account() {
        if (pid <= 0) {
            return;
        }
        ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration())
                .ifPresent(d -> cpuSecondsOfPid = d.toNanos() / 1e9);
    }

    void pidChanged(long newPid) {
        cpuSecondsBefore += cpuSecondsOfPid;
        cpuSecondsOfPid = 0;
        closeProbe();
        if (attaching != null) {
            attaching.cancel(true);
            attaching = null;
        }
        pid = newPid;
        recentClaims.clear();
    }

    double cpuSeconds() {
        return cpuSecondsBefore + cpuSecondsOfPid;
    }

    /** CPU seconds and time at the start of the last period, for {@link #usedCpus}. */
    private double cpuSecondsAtMark = Double.NaN;
    private long markNanos;
    /** CPUs the process used between the last two marks; NaN until two marks. */
    double usedCpus = Double.NaN;

    /** Accounts and measures the CPUs used since the last mark: the manager's own evidence of what a server got. */
    void markUse(long nowNanos) {
        account();
        double seconds = cpuSeconds();
        if (!Double.isNaN(cpuSecondsAtMark) && nowNanos > markNanos) {
            usedCpus = Math.max(0, seconds - cpuSecondsAtMark) * 1e9 / (nowNanos - markNanos);
        }
        cpuSecondsAtMark = seconds;
        markNanos = nowNanos;
    }

    IOException unreachable(String why) {
        return new IOException(name() + " (pid " + pid + "): " + why);
    }
}
