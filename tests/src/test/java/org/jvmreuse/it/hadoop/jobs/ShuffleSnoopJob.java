package org.jvmreuse.it.hadoop.jobs;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.crypto.SecretKey;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.jvmreuse.shuffle.protocol.Announcement;
import org.jvmreuse.shuffle.protocol.Messages;
import org.jvmreuse.shuffle.protocol.RequestHash;

/**
 * A map-only job whose task tries to read another job's map output over the MPI shuffle, as a
 * hostile task in a pool slot could: through its slot's link to MPI (by reflection: it is no
 * API), it asks every Shuffle Manager in the directory for partition 0 of map {@code snoop.map}
 * of job {@code snoop.job}, with the HMAC made with {@code snoop.secret} (Base64) or, without it,
 * with its own job's shuffle secret. It writes one line per Shuffle Manager: DATA and the segment's
 * length, or FAILURE and the reason; "no slot link" outside a slot. Input: one line. Args: in out.
 */
public class ShuffleSnoopJob extends Configured implements Tool {
    public static class SnoopMapper extends Mapper<LongWritable, Text, Text, Text> {
        @Override
        protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
            Configuration conf = context.getConfiguration();
            String job = conf.get("snoop.job");
            String map = conf.get("snoop.map");
            try {
                Class<?> links = Class.forName("org.jvmreuse.shuffle.reduce.SlotLink");
                Object link = method(links, "current").invoke(null);
                if (link == null) {
                    context.write(new Text("none"), new Text("no slot link"));
                    return;
                }
                @SuppressWarnings("unchecked")
                List<String> directory = (List<String>) method(links, "directory").invoke(link);
                SecretKey secret = JobTokenSecretManager.createSecretKey(conf.get("snoop.secret") != null
                        ? Base64.getDecoder().decode(conf.get("snoop.secret")) : ownSecret());
                for (int rank = 0; rank < directory.size(); rank++) {
                    Announcement server = Announcement.parse(directory.get(rank));
                    if (server == null) {
                        continue;
                    }
                    BlockingQueue<Object> replies = new LinkedBlockingQueue<>();
                    long id = (Long) method(links, "register", Consumer.class).invoke(link, (Consumer<Object>) replies::add);
                    String user = UserGroupInformation.getCurrentUser().getShortUserName();
                    ByteBuffer read = new Messages.Read(id, Messages.Mode.CONCURRENT, user, job, map, 0, 0, 4096, false, false,
                            -1, RequestHash.of(secret, server.port(), job, 0, map)).encode();
                    method(links, "send", int.class, ByteBuffer.class).invoke(link, rank, read);
                    Object reply = replies.poll(30, TimeUnit.SECONDS);
                    method(links, "unregister", long.class).invoke(link, id);
                    context.write(new Text("rank" + rank), new Text(reply instanceof Messages.Data data
                            ? "DATA " + data.segmentLength() : reply instanceof Messages.Failure failure
                            ? "FAILURE " + failure.reason() : "NONE"));
                }
            } catch (ReflectiveOperationException e) {
                throw new IOException(e);
            }
        }

        /** The task's own job's shuffle secret, as YarnChild chooses it. */
        private static byte[] ownSecret() throws IOException {
            Credentials credentials = UserGroupInformation.getCurrentUser().getCredentials();
            byte[] secret = TokenCache.getShuffleSecretKey(credentials);
            return secret != null ? secret : TokenCache.getJobToken(credentials).getPassword();
        }

        private static Method method(Class<?> type, String name, Class<?>... parameters) throws NoSuchMethodException {
            Method m = type.getDeclaredMethod(name, parameters);
            m.setAccessible(true);
            return m;
        }
    }

    @Override
    public int run(String[] args) throws Exception {
        return MapOnlyJob.run(getConf(), "shuffle-snoop", ShuffleSnoopJob.class, SnoopMapper.class, args);
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(new ShuffleSnoopJob(), args));
    }
}
