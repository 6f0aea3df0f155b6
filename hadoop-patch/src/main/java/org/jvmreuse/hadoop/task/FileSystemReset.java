package org.jvmreuse.hadoop.task;

import java.util.Collection;
import java.util.Map;
import org.apache.hadoop.fs.AbstractFileSystem;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;

/**
 * FileSystem state. The cache is emptied without closing anything: after a normal end the run's
 * JVM hook has closed the cached file systems already (FileSystem's ClientFinalizer, with their
 * deleteOnExit paths), and after halt a JVM closes nothing either. The statistics table is
 * emptied, not zeroed: Task turns every entry into FILE_BYTES_READ/WRITTEN-style counters for its
 * scheme, and a new JVM has no entry for a scheme it has not used.
 */
final class FileSystemReset {
    private FileSystemReset() {
    }

    static void afterRun() {
        Object cache = Fields.getStatic(FileSystem.class, "CACHE");
        synchronized (cache) {
            ((Map<?, ?>) Fields.get(cache, "map")).clear();
            ((Collection<?>) Fields.get(cache, "toAutoClose")).clear();
        }
        synchronized (FileSystem.class) {
            statisticsTable().clear();
            // services (META-INF/services) are looked up again with the next task's loader
            ((Map<?, ?>) Fields.getStatic(FileSystem.class, "SERVICE_FILE_SYSTEMS")).clear();
            Fields.setStatic(FileSystem.class, "FILE_SYSTEMS_LOADED", false);
            Fields.setStatic(FileSystem.class, "symlinkEnabled", false);
            Fields.setStatic(FileSystem.class, "conf", null);
        }
        synchronized (AbstractFileSystem.class) {
            ((Map<?, ?>) Fields.getStatic(AbstractFileSystem.class, "STATISTICS_TABLE")).clear();
        }
        Map<?, ?> deleteOnExit = (Map<?, ?>) Fields.getStatic(FileContext.class, "DELETE_ON_EXIT");
        synchronized (deleteOnExit) {
            deleteOnExit.clear(); // processed by FileContext's hook after a normal end
        }
        // per-directory-key allocators hold the run's LocalFileSystem (statistics) and local dirs
        Map<?, ?> allocators = (Map<?, ?>) Fields.getStatic(LocalDirAllocator.class, "contexts");
        synchronized (allocators) {
            allocators.clear();
        }
        SharedClasses.loaded("org.apache.hadoop.fs.HarFileSystem").ifPresent(har -> {
            Map<?, ?> metadata = (Map<?, ?>) Fields.getStatic(har, "harMetaCache");
            if (metadata != null) {
                metadata.clear();
            }
        });
        // a thread (started by a task, so stopped) that renews tokens of the run's file systems
        SharedClasses.loaded("org.apache.hadoop.fs.DelegationTokenRenewer").ifPresent(renewer -> {
            synchronized (renewer) {
                Fields.setStatic(renewer, "INSTANCE", null);
            }
        });
    }

    /**
     * SecureIOUtils keeps a RawLocalFileSystem in a static final field; all instances of a class
     * share one Statistics object, so reads through it (MapTask reading spill indexes) count
     * only if that object is the table's entry for RawLocalFileSystem, as in a new JVM, where
     * every task has that entry (YarnChild uses the local file system before the task starts).
     */
    static void keepSecureIoStatistics() {
        SharedClasses.loaded("org.apache.hadoop.io.SecureIOUtils").ifPresent(secureIo -> {
            FileSystem raw = (FileSystem) Fields.getStatic(secureIo, "rawFilesystem");
            FileSystem.Statistics kept = (FileSystem.Statistics) Fields.get(raw, "statistics");
            kept.reset();
            synchronized (FileSystem.class) {
                statisticsTable().put(raw.getClass(), kept);
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<Class<?>, FileSystem.Statistics> statisticsTable() {
        return (Map<Class<?>, FileSystem.Statistics>) Fields.getStatic(FileSystem.class, "statisticsTable");
    }
}
