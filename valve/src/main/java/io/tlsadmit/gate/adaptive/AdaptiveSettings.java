package io.tlsadmit.gate.adaptive;

import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import io.tlsadmit.peek.NativePeek;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The connector attributes of {@code budget="adaptive"} as the user wrote them, turned into a wired
 * {@link AdmissionController}. Unset attributes keep the controller's defaults; a bad value is an
 * {@link IllegalArgumentException} whose message starts with the attribute name, so the gate can stop
 * Tomcat's start with it.
 */
public final class AdaptiveSettings {

    private String cpus;
    private String targetUtilization;
    private String controlPeriod;
    private String minFullHandshakesPerSecond;
    private String queueDelayTarget;
    private String initialFullHandshakeCost;

    public String getCpus() {
        return cpus;
    }

    public void setCpus(String cpus) {
        this.cpus = cpus;
    }

    public String getTargetUtilization() {
        return targetUtilization;
    }

    public void setTargetUtilization(String value) {
        this.targetUtilization = value;
    }

    public String getControlPeriod() {
        return controlPeriod;
    }

    public void setControlPeriod(String millis) {
        this.controlPeriod = millis;
    }

    public String getMinFullHandshakesPerSecond() {
        return minFullHandshakesPerSecond;
    }

    public void setMinFullHandshakesPerSecond(String rate) {
        this.minFullHandshakesPerSecond = rate;
    }

    public String getQueueDelayTarget() {
        return queueDelayTarget;
    }

    public void setQueueDelayTarget(String millis) {
        this.queueDelayTarget = millis;
    }

    public String getInitialFullHandshakeCost() {
        return initialFullHandshakeCost;
    }

    public void setInitialFullHandshakeCost(String micros) {
        this.initialFullHandshakeCost = micros;
    }

    /**
     * A controller configured from these attributes, measuring this process's CPU clock and, when
     * native-peek is loaded, the real affinity mask (so {@code taskset -p} is seen at the next tick).
     * Not yet ticking: the connector starts and stops its {@code ControlLoop}.
     *
     * @param cap   {@code maxFullHandshakesPerSecond}, already parsed; empty = the controller's default
     * @param burst {@code fullHandshakeBurst}, already parsed; empty = automatic (0)
     * @throws IllegalArgumentException naming the offending attribute
     */
    public AdmissionController newController(OptionalDouble cap, OptionalLong burst) {
        AdmissionController controller = new AdmissionController();
        if (cpus != null) {
            controller.setCpus(decimal(AdmissionController.CPUS, cpus, "a number of CPUs (0 = detect)"));
        }
        if (targetUtilization != null) {
            controller.setTargetUtilization(decimal(AdmissionController.TARGET_UTILIZATION, targetUtilization,
                    "a fraction in (0, 1]"));
        }
        if (controlPeriod != null) {
            controller.setControlPeriod(whole(AdmissionController.CONTROL_PERIOD, controlPeriod, "milliseconds"));
        }
        if (queueDelayTarget != null) {
            controller.setQueueDelayTarget(whole(AdmissionController.QUEUE_DELAY_TARGET, queueDelayTarget,
                    "milliseconds"));
        }
        if (initialFullHandshakeCost != null) {
            controller.setInitialFullHandshakeCost(whole(AdmissionController.INITIAL_COST, initialFullHandshakeCost,
                    "microseconds"));
        }
        if (minFullHandshakesPerSecond != null) {
            controller.setMinFullHandshakesPerSecond(decimal(AdmissionController.MIN_RATE, minFullHandshakesPerSecond,
                    "a number of new full handshakes per second"));
        }
        if (cap.isPresent()) {
            controller.setMaxFullHandshakesPerSecond(cap.getAsDouble());
        }
        if (burst.isPresent()) {
            controller.setFullHandshakeBurst(burst.getAsLong());
        }
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean process && process.getProcessCpuTime() >= 0) {
            controller.setProcessCpuTime(process::getProcessCpuTime);
        }
        CompilerThreadsCpu compilation = new CompilerThreadsCpu();
        if (compilation.available()) {
            controller.setTransientCpuTime(compilation);
        }
        if (NativePeek.isAvailable()) {
            controller.allocation().setAffinity(NativePeek::allowedCpus);
        }
        return controller;
    }

    /** Where the controller reads the CPUs it may use from, for the start-up log line. */
    public static String affinitySource() {
        return NativePeek.isAvailable() ? "sched_getaffinity (native-peek)"
                : "Runtime.availableProcessors() (native-peek unavailable: " + NativePeek.unavailableReason() + ")";
    }

    private static double decimal(String attribute, String value, String meaning) {
        try {
            double parsed = Double.parseDouble(value.trim());
            if (Double.isFinite(parsed)) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below in the user's terms
        }
        throw new IllegalArgumentException(attribute + " must be " + meaning + ", was \"" + value + "\"");
    }

    private static long whole(String attribute, String value, String unit) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(attribute + " must be a whole number of " + unit + ", was \""
                    + value + "\"");
        }
    }
}
