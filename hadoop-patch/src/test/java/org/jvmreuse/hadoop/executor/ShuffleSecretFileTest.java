package org.jvmreuse.hadoop.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shuffle secret recorded from a container's credentials, as the NodeManager writes them. */
class ShuffleSecretFileTest {
    private static final byte[] SHUFFLE_SECRET = "shuffle secret".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] JOB_TOKEN_PASSWORD = "job token password".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path localDir;

    private Path tokens(Credentials credentials) throws Exception {
        Path dir = Files.createDirectories(localDir.resolve("nmPrivate/application_1_0001/container_1_0001_01_000002"));
        Path file = dir.resolve("container_1_0001_01_000002.tokens");
        credentials.writeTokenStorageFile(new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false));
        return file;
    }

    private static Credentials withJobToken() {
        Credentials credentials = new Credentials();
        TokenCache.setJobToken(new Token<>(new JobTokenIdentifier(new Text("job_1_0001")).getBytes(), JOB_TOKEN_PASSWORD,
                JobTokenIdentifier.KIND_NAME, new Text("")), credentials);
        return credentials;
    }

    @Test
    void theShuffleSecretGoesIntoTheApplicationsPrivateDirectoryForItsOwnerOnly() throws Exception {
        Credentials credentials = withJobToken();
        TokenCache.setShuffleSecretKey(SHUFFLE_SECRET, credentials);
        Path file = ShuffleSecretFile.record(tokens(credentials), new Configuration(false));
        assertEquals(localDir.resolve("nmPrivate/application_1_0001/" + ShuffleSecretFile.NAME), file);
        assertArrayEquals(SHUFFLE_SECRET, Files.readAllBytes(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        try (var left = Files.list(file.getParent())) {
            assertEquals(2, left.count(), "the container's directory and the secret, no temporary file");
        }
    }

    /** A job without a shuffle secret shuffles with its job token's password, as YarnChild and the MRAppMaster choose. */
    @Test
    void withoutAShuffleSecretTheJobTokensPasswordIsRecorded() throws Exception {
        Path file = ShuffleSecretFile.record(tokens(withJobToken()), new Configuration(false));
        assertArrayEquals(JOB_TOKEN_PASSWORD, Files.readAllBytes(file));
    }

    @Test
    void credentialsOfAnotherKindOfApplicationRecordNothing() throws Exception {
        assertNull(ShuffleSecretFile.record(tokens(new Credentials()), new Configuration(false)));
    }
}
