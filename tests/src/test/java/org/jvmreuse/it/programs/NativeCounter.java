package org.jvmreuse.it.programs;

/**
 * Loads the test's JNI counter library and prints its native counter after incrementing it: 1
 * in every fresh JVM. Args: {@code loadLibrary} (found on -Djava.library.path) or {@code load}
 * and the library's absolute path.
 */
public final class NativeCounter {
    public static void main(String[] args) {
        if (args[0].equals("load")) {
            System.load(args[1]);
        } else {
            System.loadLibrary("jvmreusecounter");
        }
        System.out.println(args[0] + " counter=" + increment());
    }

    private static native int increment();
}
