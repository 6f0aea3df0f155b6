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
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * The direct entries of a port for a Shuffle Manager and a reducer in one JVM (the slots'
 * warm-up, tests). Direct chunks ("pid", "local", "address", "peerRead"): the copy out of the
 * server's memory is a copy within this process ({@code sun.misc.Unsafe}, module jdk.unsupported),
 * where a pool's port uses process_vm_readv between two processes. Lent files ("openFile",
 * "closeFile", "takeFile", "readFile"): descriptors are numbers for FileChannels of this JVM, and
 * taking one makes a second number for the same open file (closed with the last of them), where
 * a pool's port uses open, pidfd_getfd and pread.
 */
final class InProcessPeer {
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

    private InProcessPeer() {
    }

    /** Adds a server's entries, chunks and files: every rank is local. */
    static void server(Map<String, Object> port) {
        port.put("pid", ProcessHandle.current().pid());
        port.put("local", (IntPredicate) rank -> true);
        port.put("address", (ToLongFunction<ByteBuffer>) InProcessPeer::address);
        port.put("openFile", (ToIntFunction<String>) InProcessPeer::open);
        port.put("closeFile", (IntUnaryOperator) InProcessPeer::close);
        port.put("fileKey", (IntFunction<long[]>) InProcessPeer::key);
    }

    /** Adds a reducer's entries for direct chunks, copying with {@code peerRead}. */
    static void reducer(Map<String, Object> port, BiFunction<long[], byte[], Integer> peerRead) {
        port.put("local", (IntPredicate) rank -> true);
        port.put("peerRead", peerRead);
    }

    /** Adds a reducer's entries for lent files, reading with {@code readFile}. */
    static void fileReducer(Map<String, Object> port, BiFunction<long[], byte[], Integer> readFile) {
        port.put("local", (IntPredicate) rank -> true);
        port.put("takeFile", (ToIntFunction<long[]>) InProcessPeer::take);
        port.put("readFile", readFile);
        port.put("closeFile", (IntUnaryOperator) InProcessPeer::close);
        port.put("fileKey", (IntFunction<long[]>) InProcessPeer::key);
    }

    /** As fstat would: {device, inode} of the file a descriptor names (here: of where it was opened), or null. */
    static long[] key(int fd) {
        Open open = FILES.get(fd);
        try {
            Map<String, Object> attributes = open == null ? null : Files.readAttributes(open.path, "unix:dev,ino");
            return attributes == null ? null : new long[] {(Long) attributes.get("dev"), (Long) attributes.get("ino")};
        } catch (IOException e) {
            return null;
        }
    }

    static int open(String path) {
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

    /** As pidfd_getfd would: {pid, fd} to a second descriptor of the same open file. */
    static int take(long[] at) {
        Open open = FILES.get((int) at[1]);
        if (open == null || open.names.getAndIncrement() == 0) {
            return -EBADF;
        }
        int fd = DESCRIPTORS.getAndIncrement();
        FILES.put(fd, open);
        TAKEN.incrementAndGet();
        return fd;
    }

    static int close(int fd) {
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

    /** As pread would: {fd, position, offset, length} into the array; the count (fewer only at the end), or -errno. */
    static Integer readFile(long[] at, byte[] into) {
        Open open = FILES.get((int) at[0]);
        if (open == null) {
            return -EBADF;
        }
        ByteBuffer target = ByteBuffer.wrap(into, (int) at[2], (int) at[3]);
        try {
            while (target.hasRemaining() && open.channel.read(target, at[1] + target.position() - at[2]) > 0) {
                // until the end of the file or of the request
            }
        } catch (IOException e) {
            return -EIO;
        }
        return (int) (target.position() - at[2]);
    }

    /** The descriptors open now (tests: every lent file is closed again). */
    static int openDescriptors() {
        return FILES.size();
    }

    /** How many lent files were taken so far (tests: the warm-up read some). */
    static int taken() {
        return TAKEN.get();
    }

    static long address(ByteBuffer direct) {
        return UNSAFE.getLong(direct, ADDRESS);
    }

    /** As process_vm_readv would, within this process: {pid, address, offset, length} into the array. */
    static Integer read(long[] at, byte[] into) {
        UNSAFE.copyMemory(null, at[1], into, sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET + at[2], at[3]);
        return (int) at[3];
    }
}
