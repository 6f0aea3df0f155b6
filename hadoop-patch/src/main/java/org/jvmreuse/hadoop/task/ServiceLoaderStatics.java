package org.jvmreuse.hadoop.task;

import java.util.ServiceLoader;

/**
 * Static ServiceLoaders that Hadoop creates when their class is initialised, with the context
 * class loader of that moment: a new JVM finds the providers of its task's class path (the job's
 * jar included). Each run gets loaders over its own class loader; between runs they point at
 * the shared loader, so that none keeps a finished run's loader or providers.
 */
final class ServiceLoaderStatics {
    private ServiceLoaderStatics() {
    }

    static void pointAt(ClassLoader loader) {
        point("org.apache.hadoop.security.token.Token", "renewers",
                "org.apache.hadoop.security.token.TokenRenewer", loader);
        point("org.apache.hadoop.security.SecurityUtil", "securityInfoProviders",
                "org.apache.hadoop.security.SecurityInfo", loader);
        point("org.apache.hadoop.mapreduce.Cluster", "frameworkLoader",
                "org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider", loader);
    }

    private static void point(String owner, String field, String service, ClassLoader loader) {
        SharedClasses.loaded(owner).ifPresent(c -> {
            try {
                Class<?> serviceClass = Class.forName(service, false, SharedClasses.loader());
                Fields.setStatic(c, field, ServiceLoader.load(serviceClass, loader));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
