package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.ServiceLoaderStatics.CLIENT_PROTOCOL_PROVIDER;
import static org.jvmreuse.hadoop.names.HadoopNames.ServiceLoaderStatics.FRAMEWORK_LOADER;
import static org.jvmreuse.hadoop.names.HadoopNames.ServiceLoaderStatics.SECURITY_INFO;
import static org.jvmreuse.hadoop.names.HadoopNames.ServiceLoaderStatics.SECURITY_INFO_PROVIDERS;
import static org.jvmreuse.hadoop.names.HadoopNames.ServiceLoaderStatics.TOKEN_RENEWER;
import static org.jvmreuse.hadoop.names.HadoopNames.ServiceLoaderStatics.TOKEN_RENEWERS;

import java.util.ServiceLoader;
import org.jvmreuse.hadoop.names.ClassName;
import org.jvmreuse.hadoop.names.FieldName;

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
        TOKEN_RENEWERS.ifPresent(f -> point(f, TOKEN_RENEWER, loader));
        point(SECURITY_INFO_PROVIDERS, SECURITY_INFO, loader);
        point(FRAMEWORK_LOADER, CLIENT_PROTOCOL_PROVIDER, loader);
    }

    private static void point(FieldName field, ClassName service, ClassLoader loader) {
        SharedClasses.loaded(field.owner()).ifPresent(c -> {
            try {
                Class<?> serviceClass = Class.forName(service.name(), false, SharedClasses.loader());
                Fields.setStatic(c, field, ServiceLoader.load(serviceClass, loader));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
