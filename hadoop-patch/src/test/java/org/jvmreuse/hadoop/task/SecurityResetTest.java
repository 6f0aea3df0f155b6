package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecurityResetTest {
    @Test
    void eachRunLogsInAgain() throws Exception {
        Object first = new SlotRun(new RunLoader()).run(true, UserGroupInformation::getLoginUser);
        Object second = new SlotRun(new RunLoader()).run(true, UserGroupInformation::getLoginUser);
        assertNotSame(first, second);
    }

    @Test
    void eachRunReadsItsOwnTokenFile(@TempDir Path dir) throws Exception {
        Path first = tokenFile(dir, "job_1");
        Path second = tokenFile(dir, "job_2");
        assertEquals(List.of("job_1"), new SlotRun(new RunLoader()).run(
                Map.of("HADOOP_TOKEN_FILE_LOCATION", first.toString()), true, SecurityResetTest::loginTokens));
        assertEquals(List.of("job_2"), new SlotRun(new RunLoader()).run(
                Map.of("HADOOP_TOKEN_FILE_LOCATION", second.toString()), true, SecurityResetTest::loginTokens));
    }

    private static List<String> loginTokens() throws Exception {
        List<String> services = new ArrayList<>();
        for (Token<? extends TokenIdentifier> t : UserGroupInformation.getLoginUser().getCredentials().getAllTokens()) {
            services.add(t.getService().toString());
        }
        return services;
    }

    private static Path tokenFile(Path dir, String service) throws Exception {
        Credentials credentials = new Credentials();
        credentials.addToken(new Text(service),
                new Token<>(new byte[] {1}, new byte[] {2}, new Text("TEST_KIND"), new Text(service)));
        Path file = dir.resolve(service + ".tokens");
        // not writeTokenStorageFile: its FileSystem would log in outside any run, as no slot does
        try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
            credentials.writeTokenStorageToStream(out);
        }
        return file;
    }
}
