package org.jvmreuse.hadoop.task;

import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * What a class initialiser adds to Configuration's statics (YarnConfiguration's, HdfsConfiguration's):
 * deprecations and default resources, recorded once at the slot's start
 * ({@link ConfigurationReset#registrationsOf}). Run as a first-use action, it adds them again in
 * the run that first uses the class, as the initialiser does in a new JVM, through the same public
 * calls, which also reload every live configuration.
 */
record Registrations(List<String> resources, Deprecations deprecations) implements Runnable {
    Registrations {
        resources = List.copyOf(resources);
    }

    @Override
    public void run() {
        deprecations.add();
        resources.forEach(Configuration::addDefaultResource);
    }
}
