package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.hadoop.task.job.LogsALine;

class Log4jResetTest {
    @TempDir
    Path dir;

    @Test
    void eachRunLogsToTheFileItsOwnConfigurationNames() throws Exception {
        Path first = dir.resolve("first.log");
        Path second = dir.resolve("second.log");
        HadoopRuns.run(HadoopRuns.of(LogsALine.class, "one", "shutdown").property("log4j.configuration", fileAppender(first)));
        HadoopRuns.run(HadoopRuns.of(LogsALine.class, "two").property("log4j.configuration", fileAppender(second)));
        assertEquals("one\n", Files.readString(first));
        assertEquals("two\n", Files.readString(second));
    }

    @Test
    void containerLog4jPropertiesWriteTheContainersSyslog() throws Exception {
        Path logDir = Files.createDirectories(dir.resolve("container_1"));
        // YarnChild's command line (MapReduceChildJVM): the config is a resource of the class path
        HadoopRuns.run(HadoopRuns.of(LogsALine.class, "task started")
                .property("log4j.configuration", "container-log4j.properties")
                .property("yarn.app.container.log.dir", logDir.toString())
                .property("yarn.app.container.log.filesize", "0")
                .property("hadoop.root.logger", "INFO,CLA"));
        assertTrue(Files.readString(logDir.resolve("syslog")).contains("task started"));
    }

    /** What the slot's Hadoop logs between runs (its own threads do) goes nowhere, not to a run's file. */
    @Test
    void nothingIsLoggedBetweenRuns() throws Exception {
        Path log = dir.resolve("run.log");
        HadoopRuns.run(HadoopRuns.of(LogsALine.class, "in the run").property("log4j.configuration", fileAppender(log)));
        Class<?> logger = HadoopRuns.sharedClass("org.apache.log4j.Logger");
        Object jobLogger = logger.getMethod("getLogger", String.class).invoke(null, "org.example.Job");
        logger.getMethod("error", Object.class).invoke(jobLogger, "between runs");
        assertEquals("in the run\n", Files.readString(log));
    }

    /** A log4j configuration that writes the messages alone to {@code log}; its URL. */
    private String fileAppender(Path log) throws Exception {
        Path config = dir.resolve(log.getFileName() + ".properties");
        Files.writeString(config, String.join("\n",
                "log4j.rootLogger=INFO,F",
                "log4j.appender.F=org.apache.log4j.FileAppender",
                "log4j.appender.F.File=" + log,
                "log4j.appender.F.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.F.layout.ConversionPattern=%m%n"));
        return config.toUri().toString();
    }
}
