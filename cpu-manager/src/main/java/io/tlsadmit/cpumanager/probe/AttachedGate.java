package io.tlsadmit.cpumanager.probe;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.util.Set;
import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The gate's JMX MBeans ({@code io.tlsadmit:type=AdaptiveBudget,connector=...}) in a JVM on this host,
 * reached through the Attach API: it starts the JVM's local management agent on demand, so Tomcat
 * needs no {@code -Dcom.sun.management.jmxremote} flags and no port is opened. Attaching needs the
 * same user as the server (or root), as {@code jcmd} does.
 *
 * <p>Attributes are read by name, not through the valve's MXBean interfaces, so the manager does not
 * depend on the valve's jar or its Tomcat classes.
 */
public final class AttachedGate implements GateProbe {

    static final String BUDGETS = "io.tlsadmit:type=AdaptiveBudget,*";

    private final long pid;
    private final JMXConnector connector;
    private final MBeanServerConnection server;

    private AttachedGate(long pid, JMXConnector connector) throws IOException {
        this.pid = pid;
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    public static AttachedGate attach(long pid) throws IOException {
        String address;
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to process " + pid + ": " + e.getMessage(), e);
        }
        return new AttachedGate(pid, JMXConnectorFactory.connect(new JMXServiceURL(address)));
    }

    public long pid() {
        return pid;
    }

    private Set<ObjectName> budgets() throws IOException {
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName(BUDGETS), null);
            if (names.isEmpty()) {
                throw new IOException("process " + pid + " has no adaptive gate (no " + BUDGETS + " MBean): is the "
                        + "connector's budget \"adaptive\" and tlsadmit-tomcat.jar in its lib/?");
            }
            return names;
        } catch (JMException e) {
            throw new IOException(e);
        }
    }

    @Override
    public GateReading read() throws IOException {
        double requested = 0;
        double allocated = 0;
        double assigned = 0;
        try {
            for (ObjectName budget : budgets()) {
                requested = Math.max(requested, (Double) server.getAttribute(budget, "CpusRequested"));
                allocated = Math.max(allocated, (Double) server.getAttribute(budget, "CpusAllocated"));
                assigned = Math.max(assigned, (Double) server.getAttribute(budget, "CpusAssigned"));
            }
        } catch (JMException e) {
            throw new IOException("reading the gate of process " + pid + ": " + e.getMessage(), e);
        }
        return new GateReading(requested, allocated, assigned);
    }

    @Override
    public void assign(double cpus) throws IOException {
        try {
            for (ObjectName budget : budgets()) {
                server.setAttribute(budget, new Attribute("CpusAssigned", cpus));
            }
        } catch (JMException e) {
            throw new IOException("setting CpusAssigned on process " + pid + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException e) {
            // the server is gone: nothing left to close
        }
    }
}
