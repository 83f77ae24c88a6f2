package io.tlsadmit.cpumanager.enforcement;

import io.tlsadmit.admission.cpu.CpuList;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * CPU affinity of every thread of a process, with {@code taskset -a -p -c}: {@code sched_setaffinity}
 * is per thread, and a JVM's worker threads already exist when the manager arrives, so moving only the
 * main thread (plain {@code taskset -p}) would change nothing that matters. Threads started later
 * inherit the mask of the thread that creates them.
 */
public final class ThreadAffinity {

    private final Path fsRoot;

    /** @param fsRoot where {@code /proc} is ({@code /} in production) */
    public ThreadAffinity(Path fsRoot) {
        this.fsRoot = fsRoot;
    }

    public void pin(long pid, List<Integer> cpus) {
        String list = CpuList.format(cpus);
        try {
            Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", list, Long.toString(pid))
                    .redirectErrorStream(true).start();
            String output = new String(taskset.getInputStream().readAllBytes());
            if (!taskset.waitFor(10, TimeUnit.SECONDS) || taskset.exitValue() != 0) {
                throw new EnforcementException("taskset -a -p -c " + list + " " + pid + " failed: " + output.trim());
            }
        } catch (IOException e) {
            throw new EnforcementException("enforce: affinity needs taskset (util-linux): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EnforcementException("interrupted while setting the affinity of " + pid, e);
        }
    }

    /** The distinct CPU lists of the process's threads ({@code Cpus_allowed_list}); one entry when all agree. */
    public Set<String> threadCpuLists(long pid) {
        Set<String> lists = new LinkedHashSet<>();
        List<Path> tasks = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(fsRoot.resolve("proc/" + pid + "/task"))) {
            dir.forEach(tasks::add);
        } catch (IOException e) {
            throw new EnforcementException("cannot list the threads of " + pid + ": " + e.getMessage(), e);
        }
        for (Path task : tasks) {
            try {
                for (String line : Files.readAllLines(task.resolve("status"))) {
                    if (line.startsWith("Cpus_allowed_list:")) {
                        lists.add(line.substring("Cpus_allowed_list:".length()).trim());
                    }
                }
            } catch (IOException e) {
                // the thread ended between the listing and the read
            }
        }
        return lists;
    }
}
