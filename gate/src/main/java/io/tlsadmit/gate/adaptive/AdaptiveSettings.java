package io.tlsadmit.gate.adaptive;

import io.tlsadmit.admission.control.AdmissionController;
import io.tlsadmit.admission.cpu.CompilerThreadsCpu;
import io.tlsadmit.peek.NativePeek;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The connector attributes of {@code budget="adaptive"} as the user wrote them, turned into a wired
 * {@link AdmissionController}. Unset attributes keep the controller's defaults; a bad value is an
 * {@link IllegalArgumentException} whose message starts with the attribute name, so the gate can stop
 * Tomcat's start with it.
 */
public final class AdaptiveSettings {

    /**
     * CPUs as decimal CPUs ({@code 1.5}) or as a Kubernetes CPU quantity in millicores ({@code 500m}): the
     * Downward API hands a container's CPU request or limit over as a whole number of millicores only, so
     * {@code cpus="${CPU_MILLICORES}m"} in server.xml takes it as the kubelet writes it.
     */
    private static final Pattern CPU_QUANTITY =
            Pattern.compile("((?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)|(\\d+(?:\\.\\d+)?|\\.\\d+)m");

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
            controller.setCpus(cpus(cpus));
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
        // the allocation was first read before cpus and the affinity probe were set: read it again, so that the
        // start-up log line and JMX report what the first control period will plan for
        controller.allocation().refresh();
        return controller;
    }

    /** Where the controller reads the CPUs it may use from, for the start-up log line. */
    public static String affinitySource() {
        return NativePeek.isAvailable() ? "sched_getaffinity (native-peek)"
                : "Runtime.availableProcessors() (native-peek unavailable: " + NativePeek.unavailableReason() + ")";
    }

    static double cpus(String value) {
        Matcher quantity = CPU_QUANTITY.matcher(value.trim());
        if (quantity.matches()) {
            // group 1: decimal CPUs, also as Double.toString writes them (1.0E-4, from the Spring Boot starter)
            return quantity.group(1) != null ? Double.parseDouble(quantity.group(1))
                    : Double.parseDouble(quantity.group(2)) / 1000;
        }
        // How the server resolves placeholders is the adapter's to explain (Tomcat: AdmissionNioProtocol).
        String placeholder = value.contains("${") ? " (an unresolved ${...}: is the variable set?)" : "";
        throw new IllegalArgumentException(AdmissionController.CPUS + " must be a number of CPUs (0 = detect), decimal"
                + " (1.5) or in millicores (1500m), was \"" + value + "\"" + placeholder);
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
