package io.tlsadmit.attack.measure;

import io.tlsadmit.testing.LoadGeneratorLimit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Cuts a phase into 1-second buckets: per bucket the server's and the driver's CPU-seconds per second
 * and, if asked, gauges read from the gate (the adaptive rate, the guard factor). Medians over
 * buckets say what the phase typically looked like, unlike a mean that one slow start can move.
 */
public final class SecondSampler implements AutoCloseable {
    /** The driver has one CPU; a bucket at or above this share of it was limited by the driver. */
    public static final double DRIVER_SATURATED = LoadGeneratorLimit.SATURATED_PERCENT / 100;

    private final CpuTime server;
    private final CpuTime driver = CpuTime.ofDriver();
    private final Supplier<Map<String, Double>> gauges;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "second-sampler");
        t.setDaemon(true);
        return t;
    });
    private final Series serverCpu = new Series();
    private final Series driverCpu = new Series();
    private final Map<String, Series> gaugeSeries = new LinkedHashMap<>();
    private double lastServer;
    private double lastDriver;
    private long lastNanos;

    /** @param gauges read once per bucket, may be empty; names map to values */
    public SecondSampler(CpuTime server, Supplier<Map<String, Double>> gauges) {
        this.server = server;
        this.gauges = gauges;
        lastServer = server.seconds();
        lastDriver = driver.seconds();
        lastNanos = System.nanoTime();
        timer.scheduleAtFixedRate(this::bucket, 1, 1, TimeUnit.SECONDS);
    }

    private void bucket() {
        long now = System.nanoTime();
        double s = server.seconds();
        double d = driver.seconds();
        double elapsed = (now - lastNanos) / 1e9;
        serverCpu.add((s - lastServer) / elapsed);
        driverCpu.add((d - lastDriver) / elapsed);
        lastServer = s;
        lastDriver = d;
        lastNanos = now;
        try {
            gauges.get().forEach((name, value) -> gauge(name).add(value));
        } catch (RuntimeException e) {
            // a scrape that fails while the server is flooded is a missing bucket, not a failed phase
        }
    }

    private synchronized Series gauge(String name) {
        return gaugeSeries.computeIfAbsent(name, n -> new Series());
    }

    public Series serverCpu() {
        return serverCpu;
    }

    public Series driverCpu() {
        return driverCpu;
    }

    public synchronized Map<String, Series> gauges() {
        return new LinkedHashMap<>(gaugeSeries);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
