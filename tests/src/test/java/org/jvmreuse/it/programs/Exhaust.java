package org.jvmreuse.it.programs;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.jvmreuse.it.sharedlib.Hoard;

/**
 * {@code Exhaust heap|direct [shared]}: fills the heap with arrays (or direct memory with
 * buffers) that it keeps until an {@code OutOfMemoryError} ends it, uncaught, as in any JVM:
 * exit 1. With {@code shared} it keeps them in a shared library's static ({@link Hoard}), where
 * they outlive the run.
 */
public final class Exhaust {
    public static void main(String[] args) {
        List<Object> kept = args.length > 1 ? Hoard.KEPT : new ArrayList<>();
        System.out.println("filling " + args[0]);
        while (true) {
            kept.add(args[0].equals("direct") ? ByteBuffer.allocateDirect(1 << 20) : new long[1 << 17]);
        }
    }
}
