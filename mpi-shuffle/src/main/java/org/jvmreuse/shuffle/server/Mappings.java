package org.jvmreuse.shuffle.server;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Unmaps a mapped file region at once ({@code sun.misc.Unsafe.invokeCleaner}, module
 * jdk.unsupported) instead of leaving it to the garbage collector: a chunk is mapped per read,
 * and mappings that wait for a collection would hold address space and keep deleted map outputs
 * on disk. The caller makes sure nothing (MPI included) reads the region any more.
 */
final class Mappings {
    private static final MethodHandle INVOKE_CLEANER = invokeCleaner();

    private Mappings() {
    }

    private static MethodHandle invokeCleaner() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return MethodHandles.lookup().findVirtual(unsafeClass, "invokeCleaner",
                    MethodType.methodType(void.class, ByteBuffer.class)).bindTo(theUnsafe.get(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError("cannot unmap map output regions (sun.misc.Unsafe of jdk.unsupported): " + e);
        }
    }

    /** Unmaps {@code mapped}, a buffer from {@code FileChannel.map} (not a slice of one); it must not be used again. */
    static void unmap(ByteBuffer mapped) {
        try {
            INVOKE_CLEANER.invokeExact(mapped);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
