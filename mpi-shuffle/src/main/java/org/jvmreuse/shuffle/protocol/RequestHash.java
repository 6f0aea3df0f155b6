package org.jvmreuse.shuffle.protocol;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import javax.crypto.SecretKey;
import org.apache.hadoop.mapreduce.security.SecureShuffleUtils;

/**
 * How a READ proves that its reducer belongs to the job: as Hadoop's HTTP shuffle does, an HMAC
 * with the job's shuffle secret ({@code SecureShuffleUtils}: HMAC-SHA1, Base64) of what Hadoop's
 * fetcher would hash for this one map output: the NodeManager's shuffle port, the URL's path and
 * its query. So a hash is good for that partition of that map output, at that shuffle port, only.
 * A reducer has the secret in its task (Hadoop's {@code Task.getShuffleSecret}); the Shuffle
 * Manager learns it from the NodeManager's side ({@code JobSecrets}).
 */
public final class RequestHash {
    private RequestHash() {
    }

    /** What is hashed: {@code PORT/mapOutput?job=JOB&reduce=R&map=MAP}, as Hadoop's {@code buildMsgFrom(URL)} makes it. */
    static String message(int shufflePort, String jobId, int reduce, String mapId) {
        return shufflePort + "/mapOutput?job=" + jobId + "&reduce=" + reduce + "&map=" + mapId;
    }

    /**
     * The hash a reducer of the job puts in its READs of partition {@code reduce} of {@code mapId}
     * from the Shuffle Manager that stands in for shuffle port {@code shufflePort}.
     */
    public static String of(SecretKey secret, int shufflePort, String jobId, int reduce, String mapId) {
        return SecureShuffleUtils.generateHash(message(shufflePort, jobId, reduce, mapId).getBytes(StandardCharsets.UTF_8),
                secret);
    }

    /**
     * Whether {@code read}, received by the Shuffle Manager for {@code shufflePort}, carries the
     * hash of what it asks for made with {@code secret} (compared in constant time).
     */
    public static boolean matches(Messages.Read read, SecretKey secret, int shufflePort) {
        byte[] expected = of(secret, shufflePort, read.jobId(), read.reduce(), read.mapId()).getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(expected, read.hash().getBytes(StandardCharsets.UTF_8));
    }
}
