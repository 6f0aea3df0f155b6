package org.jvmreuse.pool.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The slot's JNI library (src/main/c/jvmreuse_native.c); its path comes from {@code -Djvmreuse.native}. */
public final class Native {
    static {
        String path = System.getProperty("jvmreuse.native");
        if (path == null || !Files.isRegularFile(Path.of(path))) {
            throw new IllegalStateException("the slot's native library is missing: set -Djvmreuse.native to the path of "
                    + "libjvmreuse.so (built into pool-manager/target/native by mvn package); got " + path);
        }
        System.load(path);
    }

    private Native() {
    }

    public static native void chdir(String directory) throws IOException;

    /** Opens {@code path} for a run's standard stream (O_NOCTTY; for writing: append, create if asked): the descriptor. */
    public static native int openStream(String path, boolean write, boolean create) throws IOException;

    /** A close-on-exec copy of {@code fd}. */
    public static native int dup(int fd) throws IOException;

    public static native void dup2(int from, int to) throws IOException;

    /** kill(2): sends {@code signal} to process {@code pid}; false if it failed (the process is gone, say). */
    public static native boolean kill(long pid, int signal);

    /** prctl(PR_SET_CHILD_SUBREAPER): this process adopts its orphaned descendants; false if refused. */
    public static native boolean becomeSubreaper();

    /** waitpid(pid, WNOHANG) for a child the JDK does not wait for: pid if it was reaped, 0 if it runs, -errno. */
    public static native long reap(long pid);

    /** JVMTI StopThread: throws {@code error} in {@code thread}. False if JVMTI refused. */
    public static native boolean stopThread(Thread thread, Throwable error);

    /**
     * process_vm_readv(2): copies {@code length} bytes at {@code address} in process {@code pid}
     * into {@code into} from {@code offset}; the count (all of them) or -errno.
     */
    public static native int peerRead(long pid, long address, byte[] into, int offset, int length);

    /** The address of a direct buffer's first byte (a mapped file region is one). */
    public static native long bufferAddress(java.nio.ByteBuffer buffer);

    /** open(2) read-only, close-on-exec: the descriptor, or -errno. */
    public static native int openRead(String path);

    /** close(2): 0 or -errno. */
    public static native int closeFd(int fd);

    /** pidfd_getfd(2): this process's descriptor for descriptor {@code fd} of process {@code pid}, or -errno. */
    public static native int peerFd(long pid, int fd);

    /** pread(2) of up to {@code length} bytes at {@code position} into {@code into} from {@code offset}: the count (fewer only at the end), or -errno. */
    public static native int fileRead(int fd, long position, byte[] into, int offset, int length);

    /** umask(2): sets the process's file mode creation mask, returns the previous one. */
    public static native int umask(int mask);

    /** getrlimit(2) of a limit named as in startup_settings.h: {soft, hard}, -1 for unlimited; null if unknown. */
    public static native long[] limit(String name);

    /** setrlimit(2) (-1: unlimited): 0 or -errno. */
    public static native int setLimit(String name, long soft, long hard);

    /** The C library's locale from this process's environment: LC_CTYPE's name, LC_MESSAGES's and the codeset, one a line. */
    public static native String nativeLocale();

    /** malloc_trim(3): gives the C heap's free memory back to the system; whether any was. */
    public static native boolean mallocTrim();
}
