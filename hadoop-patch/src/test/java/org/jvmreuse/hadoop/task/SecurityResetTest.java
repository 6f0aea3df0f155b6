package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvmreuse.hadoop.task.job.LoginTokens;

class SecurityResetTest {
    @Test
    void eachRunLogsInAgain() throws Exception {
        HadoopRuns.run(LoginTokens.class, "run_1");
        assertEquals("[]", HadoopRuns.run(LoginTokens.class).printed("tokens"), "the first run's login user");
    }

    @Test
    void eachRunReadsItsOwnTokenFile(@TempDir Path dir) throws Exception {
        Path first = tokenFile(dir, "job_1");
        Path second = tokenFile(dir, "job_2");
        assertEquals("[job_1]", HadoopRuns.run(HadoopRuns.of(LoginTokens.class)
                .env("HADOOP_TOKEN_FILE_LOCATION", first.toString())).printed("tokens"));
        assertEquals("[job_2]", HadoopRuns.run(HadoopRuns.of(LoginTokens.class)
                .env("HADOOP_TOKEN_FILE_LOCATION", second.toString())).printed("tokens"));
    }

    /** A token file as YARN localises one, written with this test's Hadoop. */
    private static Path tokenFile(Path dir, String service) throws Exception {
        Credentials credentials = new Credentials();
        credentials.addToken(new Text(service),
                new Token<>(new byte[] {1}, new byte[] {2}, new Text("TEST_KIND"), new Text(service)));
        Path file = dir.resolve(service + ".tokens");
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
            credentials.writeTokenStorageToStream(out);
        }
        return file;
    }
}
