package io.tlsadmit.cpumanager.metrics;

import java.util.List;
import java.util.Locale;

/** The manager's metrics in the Prometheus text format (0.0.4). */
public final class MetricsExposition {

    private MetricsExposition() {
    }

    public static String render(List<ServerSample> servers, double cpusAvailable, double managerCpuSeconds,
                                long periods) {
        StringBuilder out = new StringBuilder();
        family(out, "tlsadmit_manager_cpus_available", "gauge",
                "CPUs the manager shared out this period: its cpus, less what other processes used on them (capacity: measured)");
        out.append("tlsadmit_manager_cpus_available ").append(number(cpusAvailable)).append('\n');
        family(out, "tlsadmit_manager_cpus_requested", "gauge",
                "CPUs the server's gate requests (CpusRequested), as the policy used it");
        servers.forEach(s -> sample(out, "tlsadmit_manager_cpus_requested", s.name(), s.requested()));
        family(out, "tlsadmit_manager_cpus_claimed", "gauge",
                "CPUs the policy weighed for the server: its request, raised while it used all it had or did not answer");
        servers.forEach(s -> sample(out, "tlsadmit_manager_cpus_claimed", s.name(), s.claimed()));
        family(out, "tlsadmit_manager_cpus_assigned", "gauge", "CPUs assigned to the server (quota and CpusAssigned)");
        servers.forEach(s -> sample(out, "tlsadmit_manager_cpus_assigned", s.name(), s.assigned()));
        family(out, "tlsadmit_manager_cpu_seconds_total", "counter",
                "CPU time used by the server's processes since the manager started");
        servers.forEach(s -> sample(out, "tlsadmit_manager_cpu_seconds_total", s.name(), s.cpuSeconds()));
        family(out, "tlsadmit_manager_server_up", "gauge", "1 when the server's gate answered the last period");
        servers.forEach(s -> sample(out, "tlsadmit_manager_server_up", s.name(), s.answering() ? 1 : 0));
        family(out, "tlsadmit_manager_process_cpu_seconds_total", "counter", "CPU time of the manager itself");
        out.append("tlsadmit_manager_process_cpu_seconds_total ").append(number(managerCpuSeconds)).append('\n');
        family(out, "tlsadmit_manager_periods_total", "counter", "Periods the manager has run");
        out.append("tlsadmit_manager_periods_total ").append(periods).append('\n');
        return out.toString();
    }

    private static void family(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String app, double value) {
        // names are restricted to [A-Za-z0-9_.-] by the configuration: nothing to escape
        out.append(name).append("{app=\"").append(app).append("\"} ").append(number(value)).append('\n');
    }

    static String number(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        return String.format(Locale.ROOT, "%.6f", value).replaceAll("\\.?0+$", "");
    }
}
