package org.jvmreuse.workloads;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.JobConf;

/**
 * The set-up a Hadoop task does before any work: builds a JobConf (Hadoop's default
 * resources), parses an XML configuration file, opens the local file system and writes the
 * merged configuration back out. Loads about two thousand classes in a fresh JVM.
 * Usage: ConfigHeavy CONFIG.xml
 */
public final class ConfigHeavy {
    public static void main(String[] args) throws Exception {
        JobConf conf = new JobConf();
        conf.addResource(new Path(new File(args[0]).getAbsolutePath()));
        conf.setJobName("config-heavy");
        int properties = 0;
        for (Map.Entry<String, String> ignored : conf) {
            properties++;
        }
        FileSystem local = FileSystem.getLocal(conf);
        boolean exists = local.exists(new Path(new File(args[0]).getAbsolutePath()));
        ByteArrayOutputStream xml = new ByteArrayOutputStream();
        conf.writeXml(xml);
        System.out.println("properties=" + properties + " exists=" + exists + " xml-bytes=" + xml.size()
                + " io.sort.mb=" + conf.getInt("mapreduce.task.io.sort.mb", -1));
    }
}
