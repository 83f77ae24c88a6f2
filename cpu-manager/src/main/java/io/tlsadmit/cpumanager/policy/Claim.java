package io.tlsadmit.cpumanager.policy;

/**
 * What one server asks for in a period.
 *
 * @param name      the application
 * @param priority  1 or more
 * @param requested CPUs its arrivals would need (the gate's {@code CpusRequested}), {@code >= 0}
 */
public record Claim(String name, int priority, double requested) {

    public Claim {
        if (priority < 1) {
            throw new IllegalArgumentException("priority must be >= 1, was " + priority);
        }
        if (!(requested >= 0) || Double.isInfinite(requested)) {
            throw new IllegalArgumentException("requested must be a number of CPUs >= 0, was " + requested);
        }
    }
}
