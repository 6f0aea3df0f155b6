package org.jvmreuse.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A tiny JNI library for the tests, built with gcc: one static counter behind the native
 * {@code increment()} of the test program and of the Hadoop test job, so a run that sees 2 saw
 * the native state of a run before it.
 */
public final class NativeCounterLibrary {
    /** The name for System.loadLibrary. */
    public static final String NAME = "jvmreusecounter";
    private static final String SOURCE = """
            /* No jni.h needed: jint is int, and the JNIEnv and class arguments go unused. */
            static int counter;

            int Java_org_jvmreuse_it_programs_NativeCounter_increment(void *env, void *cls) {
                return ++counter;
            }

            int Java_org_jvmreuse_it_hadoop_jobs_NativeJob_increment(void *env, void *cls) {
                return ++counter;
            }
            """;

    private NativeCounterLibrary() {
    }

    /** Builds the library into {@code dir} and returns its file (lib...so). */
    public static Path build(Path dir) throws Exception {
        Path source = Files.writeString(Files.createDirectories(dir).resolve("counter.c"), SOURCE);
        Path library = dir.resolve(System.mapLibraryName(NAME));
        Pool.Result gcc = Pool.exec(List.of("gcc", "-shared", "-fPIC", "-O2", "-o", library.toString(), source.toString()),
                Map.of(), dir, 60);
        if (gcc.code() != 0) {
            throw new IllegalStateException("cannot build the test's JNI library: " + gcc);
        }
        return library;
    }
}
