package org.jvmreuse.it.programs;

import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * Takes MIB mebibytes outside the heap (Unsafe.allocateMemory, every page touched) and either
 * frees them ("free") or leaves them allocated ("keep"), as native code that leaks does.
 */
public final class NativeHog {
    private NativeHog() {
    }

    public static void main(String[] args) throws Exception {
        long bytes = Long.parseLong(args[0]) << 20;
        Field field = Unsafe.class.getDeclaredField("theUnsafe");
        field.setAccessible(true);
        Unsafe unsafe = (Unsafe) field.get(null);
        long address = unsafe.allocateMemory(bytes);
        for (long offset = 0; offset < bytes; offset += 4096) {
            unsafe.putByte(address + offset, (byte) 1);
        }
        if (args[1].equals("free")) {
            unsafe.freeMemory(address);
        }
        System.out.println("took " + args[0] + " MiB, " + args[1]);
    }
}
