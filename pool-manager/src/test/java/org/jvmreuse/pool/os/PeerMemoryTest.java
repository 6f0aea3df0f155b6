package org.jvmreuse.pool.os;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * A page of the other process that takes long to come in (here: registered with userfaultfd,
     * which nobody serves until that process exits, 4 s later; swapped out or on a slow file
     * system in life) holds up the read, and only the read: collections run meanwhile (this
     * thread allocates until two have). A read into the pinned array (a JNI critical region) would
     * hold every collection, and every thread that needs one, until the page came in.
     */
    @Test
    void aReadWaitingForAPageNeverHoldsUpTheGarbageCollector(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("slowpage.c");
        Files.writeString(source, SLOW_PAGE);
        Path binary = dir.resolve("slowpage");
        Process cc = new ProcessBuilder("cc", "-o", binary.toString(), source.toString()).inheritIO().start();
        assertEquals(0, cc.waitFor(), "cc");
        Process holder = new ProcessBuilder(binary.toString(), "4").redirectErrorStream(true).start();
        try {
            String line = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            assertFalse(line == null || !line.startsWith("page "), "the helper could not set up its page: " + line);
            long address = Long.parseUnsignedLong(line.substring(5), 16);
            AtomicInteger read = new AtomicInteger(Integer.MIN_VALUE);
            Thread reader = new Thread(() -> read.set(PeerMemory.read(holder.pid(), address, new byte[4096], 0, 4096)));
            reader.start();
            Thread.sleep(300); // the reader is in process_vm_readv, waiting for the page
            long collections = collections();
            while (collections() < collections + 2 && read.get() == Integer.MIN_VALUE) {
                garbage = new byte[1 << 20]; // allocating needs collections, which run or wait for the read
            }
            assertEquals(Integer.MIN_VALUE, read.get(), "the collections waited for the read");
            reader.join();
            assertEquals(4096, read.get(), "the page came in (zeros) when its holder exited");
        } finally {
            holder.destroyForcibly().waitFor();
        }
    }

    private static volatile byte[] garbage;

    private static long collections() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    /** Maps a page, registers it with userfaultfd, prints its address, and never serves a fault: exits after argv[1] s. */
    private static final String SLOW_PAGE = """
            #define _GNU_SOURCE
            #include <fcntl.h>
            #include <linux/userfaultfd.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <sys/ioctl.h>
            #include <sys/mman.h>
            #include <sys/syscall.h>
            #include <unistd.h>
            int main(int argc, char **argv) {
                char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                int uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
                struct uffdio_api api = {.api = UFFD_API};
                struct uffdio_register reg = {.range = {(unsigned long)page, 4096}, .mode = UFFDIO_REGISTER_MODE_MISSING};
                if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api) != 0 || ioctl(uffd, UFFDIO_REGISTER, &reg) != 0) {
                    perror("userfaultfd");
                    return 1;
                }
                printf("page %lx\\n", (unsigned long)page);
                fflush(stdout);
                sleep(argc > 1 ? atoi(argv[1]) : 4);
                return 0;
            }
            """;
}
