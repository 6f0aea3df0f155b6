package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.commons.logging.LogFactory;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Log4jResetTest {
    private final Properties saved = (Properties) System.getProperties().clone();

    @AfterEach
    void restoreProperties() {
        System.setProperties(saved);
    }

    @Test
    void eachRunLogsToTheFileItsOwnConfigurationNames(@TempDir Path dir) throws Exception {
        Path first = dir.resolve("first.log");
        Path second = dir.resolve("second.log");
        System.setProperty("log4j.configuration", fileAppenderConfig(dir, first).toUri().toString());
        new SlotRun(new RunLoader()).run(true, () -> {
            Logger.getLogger("org.example.Job").info("one");
            LogManager.shutdown(); // as YarnChild's finally does
            return null;
        });
        System.setProperty("log4j.configuration", fileAppenderConfig(dir, second).toUri().toString());
        new SlotRun(new RunLoader()).run(true, () -> {
            Logger.getLogger("org.example.Job").info("two");
            return null;
        });
        assertEquals("one\n", Files.readString(first));
        assertEquals("two\n", Files.readString(second));
    }

    @Test
    void containerLog4jPropertiesWriteTheContainersSyslog(@TempDir Path dir) throws Exception {
        Path logDir = Files.createDirectories(dir.resolve("container_1"));
        // YarnChild's command line (MapReduceChildJVM): the config is a resource of the class path
        System.setProperty("log4j.configuration", "container-log4j.properties");
        System.setProperty("yarn.app.container.log.dir", logDir.toString());
        System.setProperty("yarn.app.container.log.filesize", "0");
        System.setProperty("hadoop.root.logger", "INFO,CLA");
        new SlotRun(new RunLoader()).run(true, () -> {
            LogFactory.getLog("org.apache.hadoop.mapred.YarnChild").info("task started");
            return null;
        });
        assertTrue(Files.readString(logDir.resolve("syslog")).contains("task started"));
    }

    @Test
    void nothingIsLoggedBetweenRuns(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("run.log");
        System.setProperty("log4j.configuration", fileAppenderConfig(dir, log).toUri().toString());
        new SlotRun(new RunLoader()).run(true, () -> null);
        Logger.getLogger("org.example.Job").error("between runs");
        assertFalse(Files.readString(log).contains("between runs"));
    }

    private static Path fileAppenderConfig(Path dir, Path log) throws Exception {
        Path config = dir.resolve(log.getFileName() + ".properties");
        Files.writeString(config, String.join("\n",
                "log4j.rootLogger=INFO,F",
                "log4j.appender.F=org.apache.log4j.FileAppender",
                "log4j.appender.F.File=" + log,
                "log4j.appender.F.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.F.layout.ConversionPattern=%m%n"));
        return config;
    }
}
