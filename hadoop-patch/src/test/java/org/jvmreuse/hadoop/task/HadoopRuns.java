package org.jvmreuse.hadoop.task;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.util.VersionUtil;
import org.jvmreuse.pool.slot.InProcessRun;
import org.jvmreuse.pool.slot.InProcessSlot;
import org.jvmreuse.pool.slot.RunOutcome;

/**
 * Runs of job programs (package org.jvmreuse.hadoop.task.job) in the slot of this JVM
 * (pool-manager's InProcessSlot), as a slot of the Hadoop cluster runs tasks: Hadoop's
 * installation and this module's classes are the shared class path (one shared loader, kept
 * across runs, whose run hook is {@link HadoopTaskReset}), and the program's classes (this
 * module's test classes) are the run's own. The Hadoop a run uses is the shared loader's, not
 * this test's: tests see it through what a run prints, or through {@link #sharedClass}.
 */
final class HadoopRuns {
    private static final List<String> SHARED = sharedClassPath();

    private HadoopRuns() {
    }

    /** A run of {@code program}'s main with {@code args}. */
    static InProcessRun of(Class<?> program, String... args) {
        return InProcessRun.of(program.getName(), args).shared(SHARED).classPath(List.of(location(program)));
    }

    /**
     * A run with an MRAppMaster's options as the cluster gives them (job-scripts/lib/core/hadoop-version.sh,
     * _jvmreuse_webapp_opts): before Hadoop 3.5, java.lang opened, which Guice's cglib needs for
     * the AM's web app on Java 9+; 3.5's AM gets none, nor do tasks. The Hadoop is this JVM's,
     * which is the shared class path's.
     */
    static InProcessRun ofAppMaster(Class<?> program, String... args) {
        InProcessRun run = of(program, args);
        return VersionUtil.compareVersions(VersionInfo.getVersion(), "3.5") < 0 ? run.addOpens("java.base/java.lang") : run;
    }

    /** Runs it; it must end normally and leave the slot clean. */
    static RunOutcome run(InProcessRun run) throws Exception {
        RunOutcome outcome = InProcessSlot.get().run(run);
        if (!outcome.clean()) {
            throw new AssertionError("the run did not end cleanly: " + outcome);
        }
        return outcome;
    }

    static RunOutcome run(Class<?> program, String... args) throws Exception {
        return run(of(program, args));
    }

    /** A class of the slot's Hadoop (or of this module's main classes), as the shared loader has it, not initialised. */
    static Class<?> sharedClass(String name) throws Exception {
        return Class.forName(name, false, InProcessSlot.get().sharedLoader(SHARED));
    }

    /** Hadoop's installation (its jars, from the build: pom.xml) and this module's classes. */
    private static List<String> sharedClassPath() {
        String installation = System.getProperty("hadoop.installation");
        if (installation == null || installation.isEmpty()) {
            throw new IllegalStateException("no hadoop.installation: the build sets it to the class path of Hadoop's jars");
        }
        List<String> entries = new ArrayList<>(List.of(installation.split(File.pathSeparator)));
        entries.add(location(HadoopTaskReset.class));
        return List.copyOf(entries);
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
