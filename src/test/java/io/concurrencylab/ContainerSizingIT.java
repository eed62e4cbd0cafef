package io.concurrencylab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.concurrencylab.support.Metrics;
import io.concurrencylab.support.PackagedApp;
import io.concurrencylab.support.Pod;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packaged app (the jar, or the executable of -Dnative) in a real cgroup of 0.5 CPU and 512 MB, with no -Xmx:
 * it sees one processor and sizes its heap from the 512 MB, not from the machine. The executable's view comes from
 * deploy/native's container support; the JVM's from HotSpot's own.
 */
class ContainerSizingIT {

    static final long LIMIT = 512L << 20;

    @Test
    void seesOneProcessorAndSizesItsHeapFromTheMemoryLimit() throws Exception {
        try (Pod pod = Pod.limited("concurrency-lab-container-sizing", LIMIT);
                PackagedApp app = PackagedApp.start("container-sizing", Map.of(), pod)) {
            String metrics = app.get("/q/metrics").body();
            double processors = Metrics.sumIn(metrics, "system_cpu_count");
            double heap = Metrics.sumIn(metrics, "lab_heap_max_bytes");
            System.out.printf("container sizing, 0.5 CPU and %d MB: %.0f processor(s), a heap of at most %.0f MB%n",
                    LIMIT >> 20, processors, heap / (1 << 20));
            assertEquals(1.0, processors, "processors seen within 0.5 CPU");
            // The JVM's default is a quarter of the limit, the executable's most of it; the machine's is 24 GB here.
            assertTrue(heap >= LIMIT / 8 && heap <= LIMIT, "heap sized from the limit: " + heap + " bytes");
        }
    }
}
