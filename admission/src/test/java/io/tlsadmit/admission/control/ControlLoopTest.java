package io.tlsadmit.admission.control;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlsadmit.admission.cost.HandshakeCost;
import io.tlsadmit.admission.cpu.CpuAllocation;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The production driver on a real thread; waits for events, asserts no timings. */
class ControlLoopTest {

    @TempDir
    Path noCgroups;

    @Test
    void ticksTheControllerRepeatedlyOnItsOwnThreadUntilClosed() throws InterruptedException {
        // The affinity probe runs twice at construction (allocation, controller) and once per
        // tick: the fourth call is in the second tick, so the first one has completed.
        CountDownLatch twoTicks = new CountDownLatch(4);
        CpuAllocation allocation = new CpuAllocation(noCgroups, () -> {
            twoTicks.countDown();
            return 2;
        });
        AdmissionController controller = new AdmissionController(allocation, new HandshakeCost(), System::nanoTime);
        controller.setControlPeriod(10);
        try (ControlLoop loop = new ControlLoop(controller)) {
            loop.start();
            assertTrue(twoTicks.await(30, TimeUnit.SECONDS), "the loop did not tick");
            assertNotNull(controller.lastDecision());
        }
    }

    @Test
    void anUnavailableProcessCpuClockDoesNotStopControl() throws InterruptedException {
        // Read once by the setter, then once per tick: the fourth read is in the third tick.
        CountDownLatch probes = new CountDownLatch(4);
        CpuAllocation allocation = new CpuAllocation(noCgroups, () -> 2);
        AdmissionController controller = new AdmissionController(allocation, new HandshakeCost(), System::nanoTime);
        controller.setControlPeriod(10);
        controller.setProcessCpuTime(() -> {
            probes.countDown();
            throw new IllegalStateException("process CPU clock unavailable");
        });
        try (ControlLoop loop = new ControlLoop(controller)) {
            loop.start();
            assertTrue(probes.await(30, TimeUnit.SECONDS), "the loop stopped after a failure");
            assertNotNull(controller.lastDecision());
        }
    }
}
