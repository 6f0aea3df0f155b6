package org.jvmreuse.hadoop.task.job;

import org.apache.hadoop.metrics2.annotation.Metric;
import org.apache.hadoop.metrics2.annotation.Metrics;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;

/** A job's own metrics2 source. */
@Metrics(about = "job metrics", context = "job")
public class JobMetrics {
    @Metric("records")
    MutableCounterLong records;
}
