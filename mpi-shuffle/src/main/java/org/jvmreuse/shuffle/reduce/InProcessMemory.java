package org.jvmreuse.shuffle.reduce;

import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.IntPredicate;
import java.util.function.ToLongFunction;

/**
 * The direct-chunk entries of a port ("pid", "local", "address", "peerRead") for a Shuffle
 * Manager and a reducer in one JVM (the slots' warm-up, tests): the copy out of the server's
 * memory is a copy within this process ({@code sun.misc.Unsafe}, module jdk.unsupported), where a
 * pool's port uses process_vm_readv between two processes.
 */
final class InProcessMemory {
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

    private InProcessMemory() {
    }

    /** Adds a server's entries: every rank is local. */
    static void server(Map<String, Object> port) {
        port.put("pid", ProcessHandle.current().pid());
        port.put("local", (IntPredicate) rank -> true);
        port.put("address", (ToLongFunction<ByteBuffer>) InProcessMemory::address);
    }

    /** Adds a reducer's entries, copying with {@code peerRead}. */
    static void reducer(Map<String, Object> port, BiFunction<long[], byte[], Integer> peerRead) {
        port.put("local", (IntPredicate) rank -> true);
        port.put("peerRead", peerRead);
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
