package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.StatisticsCleaner.CLEANER;

import java.util.function.Consumer;

/**
 * Hadoop 3.x's FileSystem.Statistics keeps each thread's counts apart and has a thread of its own,
 * started by its class initialiser, fold those of ended threads into the totals and drop them.
 * A new JVM has that thread for its whole life. The slot initialises the class itself
 * (HadoopTaskReset.SLOT_INITIALISED) and tells the slot the thread is its own: else the first run
 * that uses a file system starts it, the slot ends it with that run, and from then on every run's
 * ended threads stay in the statistics (each run's Statistics objects with them) for good.
 */
final class StatisticsCleaner {
    private StatisticsCleaner() {
    }

    /** Once, outside runs, after the slot initialised the class (2.2: no cleaner). */
    static void tellSlotWith(Consumer<Thread> slotThread) {
        CLEANER.ifPresent(cleaner -> SharedClasses.loaded(cleaner.owner()).ifPresent(statistics ->
                slotThread.accept((Thread) Fields.getStatic(statistics, cleaner))));
    }
}
