package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The MPI shuffle's single copy between processes (process_vm_readv), here from this process itself. */
class PeerMemoryTest {
    private static final int EINVAL = 22;
    private static final int EFAULT = 14;
    private static final int ESRCH = 3;

    @BeforeAll
    static void nativeLibrary() {
        // built into target/native in the compile phase, as the pool JVMs get it
        System.setProperty("jvmreuse.native", Path.of("target/native/libjvmreuse.so").toAbsolutePath().toString());
    }

    @Test
    void copiesARegionOfAProcessIntoAnArrayAtAnOffset() {
        ByteBuffer region = ByteBuffer.allocateDirect(3 << 20);
        for (int i = 0; i < region.capacity(); i++) {
            region.put(i, (byte) (i * 31 + 7));
        }
        long address = PeerMemory.address(region);
        byte[] into = new byte[(3 << 20) + 10];
        assertEquals(3 << 20, PeerMemory.read(ProcessHandle.current().pid(), address, into, 10, 3 << 20));
        byte[] expected = new byte[3 << 20];
        region.get(0, expected);
        assertArrayEquals(expected, Arrays.copyOfRange(into, 10, into.length));
        assertEquals(100, PeerMemory.read(ProcessHandle.current().pid(), address + 1000, into, 0, 100));
        assertArrayEquals(Arrays.copyOfRange(expected, 1000, 1100), Arrays.copyOf(into, 100));
    }

    @Test
    void failuresAreNegativeErrnos() {
        byte[] into = new byte[4096];
        long pid = ProcessHandle.current().pid();
        assertEquals(-EFAULT, PeerMemory.read(pid, 4096, into, 0, 100), "nothing is mapped at page 1");
        assertEquals(-EINVAL, PeerMemory.read(pid, PeerMemory.address(ByteBuffer.allocateDirect(8)), into, 4000, 100),
                "past the end of the array");
        assertEquals(-ESRCH, PeerMemory.read(Integer.MAX_VALUE - 1, 4096, into, 0, 100), "no such process");
    }
}
