package org.jvmreuse.pool.mpi;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Chooses the MPI backend of a process: {@code -Djvmreuse.mpi=native} (the default) loads the
 * JNI library named by {@code -Djvmreuse.mpi.native}; {@code -Djvmreuse.mpi=java} uses Open
 * MPI's Java bindings ({@code mpi.jar} on the class path, {@code libmpi_java} on
 * {@code java.library.path}). The launch scripts set both from build/mpi.env (docs/mpi.md).
 */
public final class MpiBackends {
    public static final String BACKEND_PROPERTY = "jvmreuse.mpi";
    public static final String NATIVE_LIBRARY_PROPERTY = "jvmreuse.mpi.native";
    public static final String NATIVE = "native";
    public static final String JAVA_BINDINGS = "java";
    private static final String JAVA_BINDINGS_CLASS = "org.jvmreuse.pool.mpi.JavaBindingsMpi";

    private MpiBackends() {
    }

    /** The backend the system properties name. */
    public static Mpi open() {
        return open(System.getProperty(BACKEND_PROPERTY, NATIVE));
    }

    public static Mpi open(String backend) {
        return switch (backend) {
            case NATIVE -> openNative(System.getProperty(NATIVE_LIBRARY_PROPERTY, ""));
            case JAVA_BINDINGS -> openJavaBindings();
            default -> throw new MpiException("unknown MPI backend '" + backend + "' (-D" + BACKEND_PROPERTY
                    + "): use '" + NATIVE + "' or '" + JAVA_BINDINGS + "'");
        };
    }

    private static Mpi openNative(String library) {
        if (library.isEmpty()) {
            throw new MpiException("the native MPI backend needs -D" + NATIVE_LIBRARY_PROPERTY
                    + "=<path of libjvmreuse_mpi.so> (built by job-scripts/setup.sh with the site's mpicc)");
        }
        if (!Files.isReadable(Path.of(library))) {
            throw new MpiException("the native MPI backend's library " + library + " is missing: run job-scripts/setup.sh"
                    + " (it builds it wherever mpicc is on PATH), or use -D" + BACKEND_PROPERTY + "=" + JAVA_BINDINGS);
        }
        try {
            return new NativeMpi(library);
        } catch (UnsatisfiedLinkError e) {
            // typically the MPI library it was built against is not on the loader's path here
            throw new MpiException("cannot load the native MPI backend " + library + ": " + e.getMessage()
                    + " (load the MPI it was built with, e.g. 'module load', or rebuild it with job-scripts/setup.sh)", e);
        }
    }

    private static Mpi openJavaBindings() {
        try {
            return (Mpi) Class.forName(JAVA_BINDINGS_CLASS).getConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            throw new MpiException("this build has no Java bindings backend: mpi.jar was not installed when the"
                    + " pool was built (job-scripts/setup.sh installs it where Open MPI has Java bindings)", e);
        } catch (NoClassDefFoundError e) {
            throw new MpiException("Open MPI's Java bindings are not on the class path (" + e.getMessage()
                    + "): add mpi.jar, or use -D" + BACKEND_PROPERTY + "=" + NATIVE, e);
        } catch (InvocationTargetException e) {
            throw new MpiException("Open MPI's Java bindings failed to load: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new MpiException("cannot create the Java bindings backend: " + e, e);
        }
    }
}
