package org.jvmreuse.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A test class that runs beside the others (junit-platform.properties) instead of after them:
 * its Slurm jobs and test hosts leave the CPUs idle about a third of its time (waiting for the
 * scheduler, a walltime margin, a lost host's timeouts). Such classes share the Slurm testbed's
 * node names and the test hosts (n1..n3), so among themselves they run one at a time; they use
 * their own directories, ports picked free at each start, and processes found by job or
 * directory, so they do not see the others' clusters.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock("slurm testbed and test hosts")
public @interface RunsBesideTheOthers {
}
