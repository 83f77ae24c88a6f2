package io.tlsadmit.cpumanager.config;

import java.nio.file.Path;

/**
 * One gated server the manager shares CPUs with.
 *
 * @param name     unique; names its cgroup and its metrics label
 * @param pidFile  where the server writes its process id ({@code CATALINA_PID}); read every period, so a
 *                 restarted server is found again
 * @param priority 1 or more; weighs its request when the requests do not fit
 */
public record Application(String name, Path pidFile, int priority) {
}
