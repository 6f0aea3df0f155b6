package org.jvmreuse.hadoop.task.job;

import org.apache.commons.logging.LogFactory;
import org.apache.log4j.LogManager;

/** Logs {@code args[0]} at INFO (through commons-logging, as Hadoop does); then shuts log4j down, as YarnChild's finally does, if {@code args[1]} is "shutdown". */
public final class LogsALine {
    public static void main(String[] args) {
        LogFactory.getLog("org.example.Job").info(args[0]);
        if (args.length > 1 && args[1].equals("shutdown")) {
            LogManager.shutdown();
        }
    }
}
