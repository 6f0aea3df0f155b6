package org.jvmreuse.hadoop.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which tasks a slot of 512 MB heap, standing for containers of up to 1024 MB, may take. */
class SlotFitTest {
    private static final String HADOOP_OPTS = "-Djava.net.preferIPv4Stack=true -Dhadoop.metrics.log.level=WARN ";
    private final SlotFit fit = new SlotFit(512L << 20, 1024, 4L << 30);

    @Test
    void aTaskWhoseHeapIsWithinTheSlotHeapGoesToTheSlot() {
        assertNull(fit.stockReason(HADOOP_OPTS + "-Xmx200m -Djava.io.tmpdir=$PWD/tmp", 512));
        assertNull(fit.stockReason(HADOOP_OPTS + "-Xmx512m", 1024));
        assertNull(fit.stockReason("-XX:MaxHeapSize=536870912", 1024));
    }

    @Test
    void aTaskAskingForMoreHeapThanTheSlotHasStartsItsOwnJvm() {
        String reason = fit.stockReason(HADOOP_OPTS + "-Xmx700m -Djava.io.tmpdir=$PWD/tmp", 1024);
        assertEquals("its heap -Xmx700m is above the slot heap of 512 MB", reason);
        assertTrue(fit.stockReason("-Xmx1g", 512).contains("-Xmx1g"));
        assertTrue(fit.stockReason("-Xmx200m -Xmx2G", 512).contains("-Xmx2G"), "the last -Xmx counts, as for the JVM");
        assertNull(fit.stockReason("-Xmx2g -Xmx200m", 512));
        assertTrue(fit.stockReason("-XX:MaxHeapSize=1073741824", 512).contains("above the slot heap"));
    }

    @Test
    void withoutXmxTheJvmDefaultIsWhatTheTaskWouldGet() {
        assertEquals("without -Xmx its JVM would get a heap of 4096 MB the slot heap of 512 MB",
                fit.stockReason(HADOOP_OPTS, 512).replace("above ", ""));
        assertNull(new SlotFit(512L << 20, 1024, 256L << 20).stockReason(HADOOP_OPTS, 512), "a small node's default fits");
    }

    @Test
    void aContainerLargerThanASlotStandsForStartsItsOwnJvm() {
        assertEquals("its container has 2048 MB, more than a slot's 1024 MB", fit.stockReason("-Xmx200m", 2048));
    }

    @Test
    void unreadableHeapOptionsAreNotGuessed() {
        assertTrue(fit.stockReason("-Xmx12x", 512).contains("cannot be read"));
    }
}
