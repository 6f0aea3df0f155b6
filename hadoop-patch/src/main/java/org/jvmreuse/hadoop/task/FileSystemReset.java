package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.ABSTRACT_STATISTICS_TABLE;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.ALLOCATOR_CONTEXTS;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.AUDIT_PROCESS_ID;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.AUDIT_PROCESS_KEY;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.CACHE;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.CACHE_MAP;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.CACHE_TO_AUTO_CLOSE;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.CONF;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.DELETE_ON_EXIT;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.FILE_SYSTEMS_LOADED;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.GLOBAL_AUDIT_CONTEXT;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.GLOBAL_STATISTICS;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.GLOBAL_STATISTICS_MAP;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.HAR_METADATA;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.SECURE_IO_FILE_SYSTEM;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.SERVICE_FILE_SYSTEMS;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.STATISTICS;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.STATISTICS_TABLE;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.SYMLINK_ENABLED;
import static org.jvmreuse.hadoop.names.HadoopNames.FileSystemReset.TOKEN_RENEWER;

import java.util.Collection;
import java.util.Map;
import org.apache.hadoop.fs.AbstractFileSystem;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.jvmreuse.hadoop.names.ClassName;
import org.jvmreuse.hadoop.names.FieldName;

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
        Object cache = Fields.getStatic(FileSystem.class, CACHE);
        synchronized (cache) {
            ((Map<?, ?>) Fields.get(cache, CACHE_MAP)).clear();
            ((Collection<?>) Fields.get(cache, CACHE_TO_AUTO_CLOSE)).clear();
        }
        synchronized (FileSystem.class) {
            statisticsTable().clear();
            // services (META-INF/services) are looked up again with the next task's loader
            ((Map<?, ?>) Fields.getStatic(FileSystem.class, SERVICE_FILE_SYSTEMS)).clear();
            Fields.setStatic(FileSystem.class, FILE_SYSTEMS_LOADED, false);
            Fields.setStatic(FileSystem.class, SYMLINK_ENABLED, false);
            CONF.ifPresent(conf -> Fields.setStatic(FileSystem.class, conf, null));
        }
        // 3.x: every file system instance's statistics by name (S3A, ABFS, HDFS, local, ...)
        GLOBAL_STATISTICS.ifPresent(instance -> SharedClasses.loaded(instance.owner()).ifPresent(c -> {
            Object global = Fields.getStatic(c, instance);
            synchronized (global) {
                ((Map<?, ?>) Fields.get(global, GLOBAL_STATISTICS_MAP.orElseThrow())).clear();
            }
        }));
        synchronized (AbstractFileSystem.class) {
            ((Map<?, ?>) Fields.getStatic(AbstractFileSystem.class, ABSTRACT_STATISTICS_TABLE)).clear();
        }
        Map<?, ?> deleteOnExit = (Map<?, ?>) Fields.getStatic(FileContext.class, DELETE_ON_EXIT);
        synchronized (deleteOnExit) {
            deleteOnExit.clear(); // processed by FileContext's hook after a normal end
        }
        // per-directory-key allocators hold the run's LocalFileSystem (statistics) and local dirs
        Map<?, ?> allocators = (Map<?, ?>) Fields.getStatic(LocalDirAllocator.class, ALLOCATOR_CONTEXTS);
        synchronized (allocators) {
            allocators.clear();
        }
        SharedClasses.loaded(HAR_METADATA.owner()).ifPresent(har -> {
            Map<?, ?> metadata = (Map<?, ?>) Fields.getStatic(har, HAR_METADATA);
            if (metadata != null) {
                metadata.clear();
            }
        });
        // 3.x: the audit context's global entries back to the class initialiser's (the process id)
        GLOBAL_AUDIT_CONTEXT.ifPresent(global -> SharedClasses.loaded(global.owner()).ifPresent(audit -> {
            Map<Object, Object> entries = map(Fields.getStatic(audit, global));
            FieldName key = AUDIT_PROCESS_KEY.orElseThrow(); // a constant: its class need not be loaded yet
            Object processKey = Fields.getStatic(sibling(audit, key.owner()), key);
            entries.clear();
            entries.put(processKey, Fields.getStatic(audit, AUDIT_PROCESS_ID.orElseThrow()));
        }));
        // a thread (started by a task, so stopped) that renews tokens of the run's file systems
        SharedClasses.loaded(TOKEN_RENEWER.owner()).ifPresent(renewer -> {
            synchronized (renewer) {
                Fields.setStatic(renewer, TOKEN_RENEWER, null);
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
        SharedClasses.loaded(SECURE_IO_FILE_SYSTEM.owner()).ifPresent(secureIo -> {
            FileSystem raw = (FileSystem) Fields.getStatic(secureIo, SECURE_IO_FILE_SYSTEM);
            FileSystem.Statistics kept = (FileSystem.Statistics) Fields.get(raw, STATISTICS);
            kept.reset();
            synchronized (FileSystem.class) {
                statisticsTable().put(raw.getClass(), kept);
            }
        });
    }

    /** {@code name}, from the loader of {@code c}. */
    private static Class<?> sibling(Class<?> c, ClassName name) {
        try {
            return Class.forName(name.name(), false, c.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("no " + name, e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<Object, Object> map(Object map) {
        return (Map<Object, Object>) map;
    }

    @SuppressWarnings("unchecked")
    private static Map<Class<?>, FileSystem.Statistics> statisticsTable() {
        return (Map<Class<?>, FileSystem.Statistics>) Fields.getStatic(FileSystem.class, STATISTICS_TABLE);
    }
}
