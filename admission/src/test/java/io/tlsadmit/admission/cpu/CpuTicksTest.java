package io.tlsadmit.admission.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Two readings of this machine's {@code /proc/stat} one second apart (2026-11-25, 2 vCPUs, a build running). */
class CpuTicksTest {

    private static final String BEFORE = """
            cpu  28220 3696 7032 44759 854 0 563 630 0 0
            cpu0 15899 735 2821 22901 128 0 228 293 0 0
            cpu1 12321 2960 4211 21857 726 0 334 336 0 0
            intr 621311 0 0 0
            ctxt 1234
            """;
    private static final String AFTER = """
            cpu  28330 3696 7038 44838 854 0 563 630 0 0
            cpu0 15997 735 2823 22901 128 0 228 293 0 0
            cpu1 12333 2960 4214 21936 726 0 334 336 0 0
            intr 622296 0 0 0
            ctxt 1299
            """;

    @Test
    void busyIsEverythingButIdleAndIoWaitStealIncluded() {
        CpuTicks cpu0 = CpuTicks.parse(BEFORE, List.of(0));
        assertEquals(15899 + 735 + 2821 + 0 + 228 + 293, cpu0.busy());
        assertEquals(cpu0.busy() + 22901 + 128, cpu0.total());
    }

    @Test
    void theBusyCpusOverASecondNeedNoClock() {
        List<Integer> both = List.of(0, 1);
        double busy = CpuTicks.parse(AFTER, both).busyCpusSince(CpuTicks.parse(BEFORE, both), 2);
        // cpu0 was busy all 100 ticks, cpu1 15 of 94: 2 × 115 / 194
        assertEquals(2.0 * 115 / 194, busy, 1e-9);
        assertEquals(1.0, CpuTicks.parse(AFTER, List.of(0)).busyCpusSince(CpuTicks.parse(BEFORE, List.of(0)), 1), 1e-9);
    }

    @Test
    void onlyTheCpusAskedForCountAndAnOfflineOneCountsNothing() {
        assertEquals(CpuTicks.parse(BEFORE, List.of(1)), CpuTicks.parse(BEFORE, List.of(1, 7)));
        assertEquals(new CpuTicks(0, 0), CpuTicks.parse(BEFORE, List.of(5)));
    }

    @Test
    void noTicksPassedIsUnknown() {
        CpuTicks same = CpuTicks.parse(BEFORE, List.of(0));
        assertTrue(Double.isNaN(same.busyCpusSince(same, 1)));
    }

    @Test
    void anOldKernelWithoutStealReadsTheColumnsItHas() {
        CpuTicks old = CpuTicks.parse("cpu0 10 0 5 80 5 0 0\n", List.of(0));
        assertEquals(new CpuTicks(15, 100), old);
    }

    @Test
    void anIntervalSplitsIntoIdleInterruptsAndSteal() {
        String before = "cpu0 100 0 50 800 50 10 40 5\n";
        String after = "cpu0 160 0 70 840 60 12 58 10\n"; // 155 ticks: 60 user, 20 system, 40 idle, 10 I/O wait, 2 irq, 18 softirq, 5 steal
        CpuTicks.Split split = CpuTicks.parse(after, List.of(0)).splitSince(CpuTicks.parse(before, List.of(0)));
        long elapsed = (60 + 20 + 2 + 18 + 5) + (40 + 10);
        assertEquals(50.0 / elapsed, split.idle(), 1e-9);
        assertEquals(20.0 / elapsed, split.interrupts(), 1e-9);
        assertEquals(5.0 / elapsed, split.steal(), 1e-9);
        assertEquals(null, CpuTicks.parse(before, List.of(0)).splitSince(CpuTicks.parse(before, List.of(0))), "no tick");
    }

    @Test
    void aLargeHostsFileReadsTheSameAsFieldByFieldOnlyTheMasksLinesCounted() {
        // 96 CPUs, some offline (no line), an intr line of 4,000 numbers, the guest columns of newer kernels
        Random random = new Random(96);
        StringBuilder stat = new StringBuilder("cpu  1 2 3 4 5 6 7 8 9 10\n");
        for (int cpu = 0; cpu < 96; cpu++) {
            if (cpu % 17 == 5) {
                continue;
            }
            stat.append("cpu").append(cpu);
            for (int field = 0; field < 10; field++) {
                stat.append(' ').append(random.nextInt(1 << 30) + (field == 3 ? 1L << 33 : 0));
            }
            stat.append('\n');
        }
        stat.append("intr 123456789");
        for (int i = 0; i < 4_000; i++) {
            stat.append(' ').append(random.nextInt(1000));
        }
        stat.append("\nctxt 99\nbtime 1764000000\nprocesses 123\nprocs_running 3\nprocs_blocked 0\nsoftirq 1 2 3\n");
        List<Integer> mask = new ArrayList<>();
        for (int cpu = 0; cpu < 96; cpu += 3) {
            mask.add(cpu);
        }
        // the reference: the counters of each masked CPU's line, taken field by field
        long busy = 0;
        long total = 0;
        long interrupts = 0;
        long steal = 0;
        for (String line : stat.toString().split("\n")) {
            String[] f = line.split(" +");
            if (f[0].matches("cpu[0-9]+") && mask.contains(Integer.parseInt(f[0].substring(3)))) {
                long[] v = new long[8];
                for (int i = 0; i < 8; i++) {
                    v[i] = Long.parseLong(f[i + 1]);
                }
                busy += v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
                total += v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
                interrupts += v[5] + v[6];
                steal += v[7];
            }
        }
        assertTrue(total > 1L << 33, "the reference read some lines");
        assertEquals(new CpuTicks(busy, total, interrupts, steal), CpuTicks.parse(stat.toString(), mask));
    }

    @Test
    void aLineThatIsNotACpusCountersIsAnErrorNotAGuess() {
        for (String bad : new String[] {"cpuX 1 2 3 4\n", "cpu0x 1 2 3 4\n", "cpu0 1 2 -3 4\n", "cpu0 1 2 3a 4\n",
                "cpu0 99999999999999999999 0 0 0\n", "cpu99999999999 1 2 3 4\n"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CpuTicks.parse(bad, List.of(0)), bad);
            assertTrue(e.getMessage().contains(bad.trim()), e.getMessage());
        }
        assertEquals(new CpuTicks(0, 0), CpuTicks.parse("cpu\ncpu0\n", List.of(0)), "no counters: nothing counted");
    }
}
