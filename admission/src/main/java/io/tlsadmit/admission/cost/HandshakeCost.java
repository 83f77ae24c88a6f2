package io.tlsadmit.admission.cost;

import io.tlsadmit.admission.HandshakeKind;
import java.util.EnumMap;
import java.util.Map;

/**
 * The measured server CPU cost of finished handshakes, by what they really were (full or resumed,
 * read from the ServerHello) and by TLS version.
 *
 * <p>Why measure instead of configure: a full handshake costs several times more with an RSA-4096
 * certificate than with ECDSA, a TLS 1.3 resumption costs a third to a half of a full handshake
 * because it still runs ECDHE while a TLS 1.2 resumption is nearly free, and all of it depends on
 * the JDK and the machine. A budget in handshakes per second is only right for one such mix; a
 * budget computed from measured CPU per handshake stays right when the mix changes.
 *
 * <p>Besides the per-version series, one series per kind across all versions gives the cost of
 * "the next full handshake" under the current version mix, which is what the controller needs.
 * Thread-safe; {@link #record} allocates nothing.
 */
public final class HandshakeCost {

    /** Weight of one new sample in the moving averages. */
    public static final double DEFAULT_ALPHA = 0.1;

    private final CostSeries[][] byKindAndVersion;
    private final CostSeries[] byKind;

    public HandshakeCost() {
        this(DEFAULT_ALPHA);
    }

    /** @param alpha weight of a new sample in the moving averages, in (0, 1] */
    public HandshakeCost(double alpha) {
        if (!(alpha > 0 && alpha <= 1)) {
            throw new IllegalArgumentException("alpha must be in (0, 1], was " + alpha);
        }
        HandshakeKind[] kinds = HandshakeKind.values();
        CostedVersion[] versions = CostedVersion.values();
        byKindAndVersion = new CostSeries[kinds.length][versions.length];
        byKind = new CostSeries[kinds.length];
        for (HandshakeKind kind : kinds) {
            byKind[kind.ordinal()] = new CostSeries(alpha);
            for (CostedVersion version : versions) {
                byKindAndVersion[kind.ordinal()][version.ordinal()] = new CostSeries(alpha);
            }
        }
    }

    /**
     * Records one finished handshake.
     *
     * @param cpuNanos server CPU time; a value {@code <= 0} means unknown and is not recorded, so
     *                 a gate that cannot measure does not drag the average to zero
     */
    public void record(HandshakeKind kind, CostedVersion version, long cpuNanos) {
        if (cpuNanos <= 0) {
            return;
        }
        byKindAndVersion[kind.ordinal()][version.ordinal()].record(cpuNanos);
        byKind[kind.ordinal()].record(cpuNanos);
    }

    /** The smoothed cost of one handshake of this kind over all versions; NaN before the first one. */
    public double ewmaNanos(HandshakeKind kind) {
        return byKind[kind.ordinal()].ewmaNanos();
    }

    /** Handshakes of this kind recorded so far (with a known CPU time). */
    public long count(HandshakeKind kind) {
        return byKind[kind.ordinal()].count();
    }

    /** CPU nanoseconds of all recorded handshakes of this kind, cumulative; take differences for a rate. */
    public long totalNanos(HandshakeKind kind) {
        return byKind[kind.ordinal()].totalNanos();
    }

    public CostSnapshot snapshot(HandshakeKind kind, CostedVersion version) {
        return byKindAndVersion[kind.ordinal()][version.ordinal()].snapshot();
    }

    /**
     * Handshakes of this kind and version at or below each bound of {@link CpuTimeBuckets}, cumulative,
     * followed by all of them: the buckets of a Prometheus histogram, {@code +Inf} last.
     */
    public long[] cumulativeBucketCounts(HandshakeKind kind, CostedVersion version) {
        return byKindAndVersion[kind.ordinal()][version.ordinal()].cumulativeBucketCounts();
    }

    public CostSnapshot snapshot(HandshakeKind kind) {
        return byKind[kind.ordinal()].snapshot();
    }

    /** Every (kind, version) series that has at least one sample, for exporting as labelled metrics. */
    public Map<HandshakeKind, Map<CostedVersion, CostSnapshot>> snapshots() {
        Map<HandshakeKind, Map<CostedVersion, CostSnapshot>> all = new EnumMap<>(HandshakeKind.class);
        for (HandshakeKind kind : HandshakeKind.values()) {
            Map<CostedVersion, CostSnapshot> versions = new EnumMap<>(CostedVersion.class);
            for (CostedVersion version : CostedVersion.values()) {
                CostSnapshot s = snapshot(kind, version);
                if (s.count() > 0) {
                    versions.put(version, s);
                }
            }
            all.put(kind, versions);
        }
        return all;
    }
}
