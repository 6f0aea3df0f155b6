package org.jvmreuse.shuffle.reduce;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jvmreuse.boot.LocalPeers;

/**
 * The local peers of the slots' loopback shuffle ({@link LoopbackShuffle}, the warm-up's MPI
 * shuffle within one JVM): same-host access ({@link LocalPeers}) for a Shuffle Manager and a
 * reducer that are one process, where every rank is local. Direct chunks ({@link #pid},
 * {@link #address}, {@link #peerRead}): the copy out of the server's memory is a copy within this
 * process ({@code sun.misc.Unsafe}, module jdk.unsupported), where a pool's port uses
 * process_vm_readv between two processes. Lent files ({@link #openFile}, {@link #closeFile},
 * {@link #takeFile}, {@link #readFile}, {@link #fileKey}): descriptors are numbers for
 * FileChannels of this JVM, shared by every instance (the server's and the reducer's), and taking
 * one makes a second number for the same open file (closed with the last of them), where a pool's
 * port uses open, pidfd_getfd and pread. So the warm-up runs the reducer's and the server's code
 * for both same-host ways without a second process. The unit tests use it the same way and
 * override a method to damage or refuse what it does. {@link #openDescriptors} and
 * {@link #taken} are read by tests only: LoopbackShuffleTest runs the warm-up as a slot does
 * (hadoop-patch's ShuffleWarmup finds this module's plug-in, which makes its own instance), so
 * counts kept here are all that can tell it what that instance did.
 */
class LoopbackPeers implements LocalPeers {
    private static final int ENOENT = 2;
    private static final int EIO = 5;
    private static final int EBADF = 9;

    private static final sun.misc.Unsafe UNSAFE;
    private static final long ADDRESS;

    static {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            UNSAFE = (sun.misc.Unsafe) f.get(null);
            ADDRESS = UNSAFE.objectFieldOffset(Buffer.class.getDeclaredField("address"));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** An open file, where it was opened, and how many descriptors name it. */
    private record Open(FileChannel channel, Path path, AtomicInteger names) {
    }

    private static final Map<Integer, Open> FILES = new ConcurrentHashMap<>();
    private static final AtomicInteger DESCRIPTORS = new AtomicInteger(1000);
    private static final AtomicInteger TAKEN = new AtomicInteger();

    @Override
    public long pid() {
        return ProcessHandle.current().pid();
    }

    @Override
    public boolean isLocal(int rank) {
        return true;
    }

    /** As fstat would: {device, inode} of the file a descriptor names (here: of where it was opened), or null. */
    @Override
    public long[] fileKey(int fd) {
        Open open = FILES.get(fd);
        try {
            Map<String, Object> attributes = open == null ? null : Files.readAttributes(open.path, "unix:dev,ino");
            return attributes == null ? null : new long[] {(Long) attributes.get("dev"), (Long) attributes.get("ino")};
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public int openFile(String path) {
        try {
            int fd = DESCRIPTORS.getAndIncrement();
            FILES.put(fd, new Open(FileChannel.open(Path.of(path), StandardOpenOption.READ), Path.of(path), new AtomicInteger(1)));
            return fd;
        } catch (NoSuchFileException e) {
            return -ENOENT;
        } catch (IOException e) {
            return -EIO;
        }
    }

    /** As pidfd_getfd would: a second descriptor of the same open file. */
    @Override
    public int takeFile(long pid, int fd) {
        Open open = FILES.get(fd);
        if (open == null || open.names.getAndIncrement() == 0) {
            return -EBADF;
        }
        int taken = DESCRIPTORS.getAndIncrement();
        FILES.put(taken, open);
        TAKEN.incrementAndGet();
        return taken;
    }

    @Override
    public int closeFile(int fd) {
        Open open = FILES.remove(fd);
        if (open == null) {
            return -EBADF;
        }
        if (open.names.decrementAndGet() == 0) {
            try {
                open.channel.close();
            } catch (IOException e) {
                return -EIO;
            }
        }
        return 0;
    }

    /** As pread would: the count (fewer only at the end), or -errno. */
    @Override
    public int readFile(int fd, long position, byte[] into, int offset, int length) {
        Open open = FILES.get(fd);
        if (open == null) {
            return -EBADF;
        }
        ByteBuffer target = ByteBuffer.wrap(into, offset, length);
        try {
            while (target.hasRemaining() && open.channel.read(target, position + target.position() - offset) > 0) {
                // until the end of the file or of the request
            }
        } catch (IOException e) {
            return -EIO;
        }
        return target.position() - offset;
    }

    /** The descriptors open now (tests: every lent file is closed again). */
    static int openDescriptors() {
        return FILES.size();
    }

    /** How many lent files were taken so far (tests: the warm-up read some). */
    static int taken() {
        return TAKEN.get();
    }

    @Override
    public long address(ByteBuffer direct) {
        return UNSAFE.getLong(direct, ADDRESS);
    }

    /** As process_vm_readv would, within this process. */
    @Override
    public int peerRead(long pid, long address, byte[] into, int offset, int length) {
        UNSAFE.copyMemory(null, address, into, sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET + offset, length);
        return length;
    }
}
