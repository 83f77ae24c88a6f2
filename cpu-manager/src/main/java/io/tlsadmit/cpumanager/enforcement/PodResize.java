package io.tlsadmit.cpumanager.enforcement;

import java.util.Locale;

/**
 * The Kubernetes form of an assignment: an in-place resize of the pod's container through the pod's
 * {@code resize} subresource (Kubernetes 1.33+), CPU request and limit both set to the share, so the
 * kubelet writes the same CFS quota the manager writes on a plain host. The manager does not talk to
 * the API server; {@code --dry-run} prints these for an operator or a controller to send.
 */
public final class PodResize {

    private PodResize() {
    }

    /** Millicores, rounded up: a quota below the share would throttle the server under its gate's plan. */
    public static String millicores(double cpus) {
        return Math.max(1, (long) Math.ceil(cpus * 1000 - 1e-6)) + "m";
    }

    /** The strategic-merge patch body for {@code kubectl patch pod <pod> --subresource resize}. */
    public static String patch(String container, double cpus) {
        String cpu = millicores(cpus);
        return String.format(Locale.ROOT, "{\"spec\":{\"containers\":[{\"name\":\"%s\",\"resources\":"
                + "{\"requests\":{\"cpu\":\"%s\"},\"limits\":{\"cpu\":\"%s\"}}}]}}", container, cpu, cpu);
    }

    /** The whole command line, quoted for a POSIX shell. */
    public static String kubectl(String pod, String container, double cpus) {
        return "kubectl patch pod " + pod + " --subresource resize --patch '" + patch(container, cpus) + "'";
    }
}
