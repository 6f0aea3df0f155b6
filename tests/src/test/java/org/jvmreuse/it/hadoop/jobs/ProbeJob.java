package org.jvmreuse.it.hadoop.jobs;

import java.io.IOException;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * A map-only job whose every task writes one line of what it sees of its JVM: the job jar's
 * Marker class, a static counter, its environment, tokens, system properties, a JDK-wide registry
 * (a security property) and a Configuration setting. Input: a file with one line per map task.
 * Args: in out.
 */
public class ProbeJob extends Configured implements Tool {
    /** Counts map calls in this class's statics: a fresh JVM (or loader) starts at 0. */
    static int calls;

    public static class ProbeMapper extends Mapper<LongWritable, Text, Text, Text> {
        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            int seen = calls++;
            StringBuilder tokens = new StringBuilder();
            TreeSet<String> sorted = new TreeSet<>();
            for (Token<?> t : UserGroupInformation.getCurrentUser().getTokens()) {
                // a job token's identifier holds its job id
                java.util.regex.Matcher job = java.util.regex.Pattern.compile("job_\\d+_\\d+")
                        .matcher(new String(t.getIdentifier(), java.nio.charset.StandardCharsets.ISO_8859_1));
                sorted.add(t.getKind() + "(" + (job.find() ? job.group() : "no job") + ")");
            }
            tokens.append(String.join(",", sorted));
            String line = "marker=" + Marker.describe()
                    + "\tstaticCallsBefore=" + seen
                    + "\tcontainer=" + System.getenv("CONTAINER_ID")
                    + "\tjvmPidMatches=" + String.valueOf(ProcessHandle.current().pid()).equals(System.getenv("JVM_PID"))
                    + "\ttokens=" + tokens
                    + "\tleakProperty=" + System.getProperty("jvmreuse.test.leak")
                    + "\tleakEnv=" + System.getenv("JVMREUSE_TEST_LEAK")
                    + "\tleakConf=" + new Configuration().get("jvmreuse.test.leak")
                    + "\tleakSecurity=" + java.security.Security.getProperty("jvmreuse.test.leak")
                    + "\tjobConf=" + context.getConfiguration().get("jvmreuse.test.job")
                    + "\ttmpdir=" + System.getProperty("java.io.tmpdir")
                    + "\tcwd=" + new java.io.File("").getAbsolutePath()
                    + "\tuser=" + UserGroupInformation.getCurrentUser().getShortUserName();
            // Leave state behind on purpose: a static, a system property, a JDK registry, a conf default.
            System.setProperty("jvmreuse.test.leak", "left by " + context.getTaskAttemptID());
            java.security.Security.setProperty("jvmreuse.test.leak", "left by " + context.getTaskAttemptID());
            Configuration.addDefaultResource("jvmreuse-test-leak.xml");
            context.write(new Text(context.getTaskAttemptID().toString()), new Text(line));
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        return MapOnlyJob.run(getConf(), "probe", ProbeJob.class, ProbeMapper.class, args);
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new ProbeJob(), args));
    }
}
