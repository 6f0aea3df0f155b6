package org.jvmreuse.hadoop.task;

import static org.jvmreuse.hadoop.names.HadoopNames.Log4jReset.GUARD;
import static org.jvmreuse.hadoop.names.HadoopNames.Log4jReset.LISTENERS;
import static org.jvmreuse.hadoop.names.HadoopNames.Log4jReset.NDC_STACKS;
import static org.jvmreuse.hadoop.names.HadoopNames.Log4jReset.NO_APPENDER_WARNING;
import static org.jvmreuse.hadoop.names.HadoopNames.Log4jReset.NO_RESOURCE_BUNDLE_WARNING;
import static org.jvmreuse.hadoop.names.HadoopNames.Log4jReset.REPOSITORY_SELECTOR;

import java.net.MalformedURLException;
import java.net.URL;
import java.util.Hashtable;
import java.util.Vector;
import org.apache.log4j.Hierarchy;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.NDC;
import org.apache.log4j.helpers.Loader;
import org.apache.log4j.helpers.LogLog;
import org.apache.log4j.helpers.OptionConverter;
import org.apache.log4j.spi.DefaultRepositorySelector;

/**
 * log4j 1.2: each run is configured from its own system properties exactly as LogManager's
 * static initialiser configures a new JVM (so YarnChild's ContainerLogAppender writes this
 * container's syslog), and after the run the repository holds none of its appenders.
 * The repository itself is kept: Hadoop's static loggers point into it.
 */
final class Log4jReset {
    private static final Hierarchy HIERARCHY = (Hierarchy) LogManager.getLoggerRepository();

    private Log4jReset() {
    }

    /** Between runs nothing logs: no appenders, and no "no appenders" warnings on the slot's stderr. */
    static void quiet() {
        HIERARCHY.setThreshold(Level.OFF);
    }

    static void beforeRun() {
        restoreRepository();
        String debug = OptionConverter.getSystemProperty(LogLog.DEBUG_KEY, null);
        if (debug == null) {
            debug = OptionConverter.getSystemProperty("log4j.configDebug", null);
        }
        LogLog.setInternalDebugging(debug != null && OptionConverter.toBoolean(debug, true));
        LogLog.setQuietMode(false);
        HIERARCHY.resetConfiguration();
        Fields.set(HIERARCHY, NO_APPENDER_WARNING, false);
        Fields.set(HIERARCHY, NO_RESOURCE_BUNDLE_WARNING, false);
        configureLikeLogManager();
    }

    /** Closes the run's appenders (after YarnChild's LogManager.shutdown() they are closed already). */
    static void afterRun() {
        restoreRepository();
        HIERARCHY.resetConfiguration();
        ((Vector<?>) Fields.get(HIERARCHY, LISTENERS)).clear();
        // NDC keeps a stack per Thread object, and a run's threads hold its loader
        Hashtable<?, ?> ndc = (Hashtable<?, ?>) Fields.getStatic(NDC.class, NDC_STACKS);
        ndc.clear();
        quiet();
    }

    /** A run may have installed its own repository selector (LogManager.setRepositorySelector). */
    private static void restoreRepository() {
        Fields.setStatic(LogManager.class, REPOSITORY_SELECTOR, new DefaultRepositorySelector(HIERARCHY));
        Fields.setStatic(LogManager.class, GUARD, null);
    }

    /**
     * LogManager's static initialiser (log4j 1.2.17), applied to the existing repository (the
     * keys are those of LogManager's constants, which log4j deprecates for outside use).
     */
    private static void configureLikeLogManager() {
        String override = OptionConverter.getSystemProperty("log4j.defaultInitOverride", null);
        if (override != null && !"false".equalsIgnoreCase(override)) {
            LogLog.debug("Default initialization of overridden by log4j.defaultInitOverrideproperty.");
            return;
        }
        String configuration = OptionConverter.getSystemProperty("log4j.configuration", null);
        String configurator = OptionConverter.getSystemProperty("log4j.configuratorClass", null);
        URL url;
        if (configuration == null) {
            url = Loader.getResource("log4j.xml");
            if (url == null) {
                url = Loader.getResource("log4j.properties");
            }
        } else {
            try {
                url = new URL(configuration);
            } catch (MalformedURLException e) {
                url = Loader.getResource(configuration);
            }
        }
        if (url == null) {
            LogLog.debug("Could not find resource: [" + configuration + "].");
            return;
        }
        LogLog.debug("Using URL [" + url + "] for automatic log4j configuration.");
        try {
            OptionConverter.selectAndConfigure(url, configurator, HIERARCHY);
        } catch (NoClassDefFoundError e) {
            LogLog.warn("Error during default initialization", e);
        }
    }
}
