package org.jvmreuse.hadoop.executor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;

/**
 * Records a job's shuffle secret for the node's Shuffle Manager (mpi-shuffle's
 * {@code JobSecrets}, which reads this file; the two modules share no classes), so that it can
 * check the HMAC of every MPI shuffle request as the NodeManager's ShuffleHandler checks every
 * HTTP one. The secret comes from the credentials the NodeManager writes for a container it
 * launches, and is the one the job's reducers hash with: Hadoop's shuffle secret, or the job
 * token's password where the job has none (as {@code YarnChild} and the MRAppMaster choose). It
 * goes, readable by its owner only, into the application's directory of the NodeManager's
 * private area, beside the container's credentials, which the NodeManager deletes with the
 * application.
 */
public final class ShuffleSecretFile {
    public static final String NAME = "jvmreuse-shuffle-secret";

    private ShuffleSecretFile() {
    }

    /**
     * Records the shuffle secret in {@code tokens} (a container's credentials,
     * {@code nmPrivate/<application>/<container>/<container>.tokens}); the file written, or
     * null if the credentials are not a MapReduce job's.
     */
    public static Path record(Path tokens, Configuration conf) throws IOException {
        Credentials credentials = Credentials.readTokenStorageFile(new org.apache.hadoop.fs.Path(tokens.toUri()), conf);
        byte[] secret = TokenCache.getShuffleSecretKey(credentials);
        if (secret == null) {
            Token<JobTokenIdentifier> jobToken = TokenCache.getJobToken(credentials);
            if (jobToken == null) {
                return null;
            }
            secret = jobToken.getPassword();
        }
        Path file = tokens.toAbsolutePath().getParent().resolveSibling(NAME);
        Path written = Files.createTempFile(file.getParent(), NAME, ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.write(written, secret);
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(written);
        }
        return file;
    }
}
