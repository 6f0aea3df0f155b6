package org.jvmreuse.hadoop.task;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;

/**
 * A run's class loader, as a slot makes one per task: its parent holds Hadoop (by default the test
 * class path stands in for the shared loader), and it defines the "job" classes (package
 * org.jvmreuse.hadoop.task.job) itself, so they are distinct from the copies the parent could load.
 */
final class RunLoader extends ClassLoader {
    static final String JOB_PACKAGE = "org.jvmreuse.hadoop.task.job.";

    RunLoader() {
        this(RunLoader.class.getClassLoader());
    }

    RunLoader(ClassLoader shared) {
        super("run", shared);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(JOB_PACKAGE)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] bytes = bytes(name);
                c = defineClass(name, bytes, 0, bytes.length);
            }
            return c;
        }
    }

    private byte[] bytes(String name) throws ClassNotFoundException {
        try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An instance of a job class (a Callable), made by this loader. */
    Callable<?> newJob(String simpleName) {
        try {
            return (Callable<?>) loadClass(JOB_PACKAGE + simpleName).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
