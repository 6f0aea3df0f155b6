package org.jvmreuse.workloads.iterative;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {
    @Test
    void etaIsTheMeanIterationTimeTimesWhatIsLeftMinusTheCurrentIterationsTime() {
        AtomicLong now = new AtomicLong();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress progress = new Progress("pr", 4, new PrintStream(bytes, true, StandardCharsets.UTF_8), now::get);
        progress.submitted(0);
        now.set(5_000);
        progress.finished(0, "");
        assertEquals(-1, progress.etaMs(now.get()), "a set-up job says nothing about iterations");
        progress.submitted(1);
        now.set(15_000);
        progress.finished(1, "");
        assertEquals(30_000, progress.etaMs(now.get()));
        progress.submitted(2);
        now.set(18_000);
        assertEquals(27_000, progress.etaMs(now.get()));
        progress.running(2, 1f, 0.5f);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("[pr] iteration 2/4 map 100% reduce  50% | elapsed 0:18 | ETA 0:27"), out);
        assertTrue(out.contains("[pr] iteration 1/4 done in 10.0 s"), out);
    }
}
