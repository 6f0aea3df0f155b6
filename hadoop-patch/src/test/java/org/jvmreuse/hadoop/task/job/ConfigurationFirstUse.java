package org.jvmreuse.hadoop.task.job;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * As a task starts (a JobConf first), prints a new Configuration's resources and whether a key
 * YARN's (3.x) and one HDFS's configuration deprecate are deprecated; then, for each argument,
 * first uses YARN's configuration ("yarn") or HDFS's file system ("dfs") and prints them again.
 */
public final class ConfigurationFirstUse {
    public static void main(String[] args) {
        JobConf job = new JobConf();
        print("start", job);
        for (String use : args) {
            if (use.equals("yarn")) {
                print(use, new YarnConfiguration());
            } else {
                print(use, new DistributedFileSystem().getConf());
            }
        }
    }

    private static void print(String step, Configuration made) {
        System.out.println(step + ".resources=" + new Configuration());
        System.out.println(step + ".yarnDeprecation=" + Configuration.isDeprecated("yarn.client.max-nodemanagers-proxies"));
        System.out.println(step + ".hdfsDeprecation=" + Configuration.isDeprecated("dfs.data.dir"));
        System.out.println(step + ".made=" + made);
    }
}
