package org.jvmreuse.hadoop.task.job;

import org.apache.hadoop.conf.Configuration;

/** Prints a new Configuration's resources; then adds the default resource {@code args[0]}, if given. */
public final class ConfigurationUse {
    public static void main(String[] args) {
        System.out.println("resources=" + new Configuration());
        if (args.length > 0) {
            Configuration.addDefaultResource(args[0]);
        }
    }
}
