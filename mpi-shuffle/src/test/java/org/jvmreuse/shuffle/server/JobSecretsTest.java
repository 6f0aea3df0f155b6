package org.jvmreuse.shuffle.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.Credentials;
import org.jvmreuse.hadoop.executor.ShuffleSecretFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobSecretsTest {
    @TempDir
    Path root;

    /** What the NodeManager's executor records from a container's credentials is the job's secret here. */
    @Test
    void theSecretTheExecutorRecordsIsFoundForItsJob() throws Exception {
        Path localDir = root.resolve("disk2");
        Path tokens = Files.createDirectories(localDir.resolve("nmPrivate/application_1700000000000_0007/container_1"))
                .resolve("container_1.tokens");
        Credentials credentials = new Credentials();
        TokenCache.setShuffleSecretKey("secret one".getBytes(StandardCharsets.US_ASCII), credentials);
        credentials.writeTokenStorageFile(new org.apache.hadoop.fs.Path(tokens.toUri()), new Configuration(false));
        ShuffleSecretFile.record(tokens, new Configuration(false));

        JobSecrets secrets = new JobSecrets(List.of(root.resolve("disk1"), localDir));
        assertArrayEquals("secret one".getBytes(StandardCharsets.US_ASCII), secrets.of("job_1700000000000_0007").getEncoded());
        assertTrue(assertThrows(MapOutputException.class, () -> secrets.of("job_1700000000000_0008")).getMessage()
                .contains("no shuffle secret"));
        assertThrows(MapOutputException.class, () -> secrets.of("job_1/../../x"));
    }

    /** A secret recorded again (a job's later container) replaces the one known. */
    @Test
    void aSecretRecordedAgainIsReadAgain() throws Exception {
        JobSecrets secrets = new JobSecrets(List.of(root));
        JobSecrets.record(root, "job_1_0001", new byte[] {1});
        assertArrayEquals(new byte[] {1}, secrets.of("job_1_0001").getEncoded());
        JobSecrets.record(root, "job_1_0001", new byte[] {2});
        Path file = root.resolve("nmPrivate/application_1_0001/" + JobSecrets.FILE);
        Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 5000));
        assertArrayEquals(new byte[] {2}, secrets.of("job_1_0001").getEncoded());
    }
}
