package io.tlsadmit.cpumanager.probe;

import java.io.Closeable;
import java.io.IOException;

/** The manager's line to one server's gate: read its request, tell it its assignment. */
public interface GateProbe extends Closeable {

    /** @throws IOException when the server cannot be reached or has no adaptive gate */
    GateReading read() throws IOException;

    /** Sets {@code CpusAssigned} on every adaptive connector of the server. */
    void assign(double cpus) throws IOException;

    @Override
    void close();
}
