package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A client whose start deadline passes while its slot starts the run asks the pool to cancel it
 * and runs a new JVM only if the pool says the run never starts: each run happens once, in the
 * slot or in a new JVM. (The client used to close and start a new JVM, and YarnChild, started in
 * both, asked for its task twice.)
 */
class StartDeadlineTest extends OneSlotPoolTest {
    @Test
    void aStartThatRacesTheClientsDeadlineRunsOnce() throws Exception {
        Path ran = Files.createTempFile("jrt-ran", ".txt");
        try {
            for (int i = 1; i <= 10; i++) {
                Pool.Result result = Pool.exec(List.of(Pool.CLIENT.toString(), "run", "-v", "--start-timeout-ms", "1",
                        "-cp", Pool.PROGRAMS, "org.jvmreuse.it.programs.Exiter", "append", ran.toString()),
                        Map.of("JVMREUSE_SOCKET", pool.socket.toString()), null, 60);
                assertEquals(0, result.code(), result.toString());
                assertEquals(i, Files.readAllLines(ran).size(), "run " + i + " did not run exactly once: " + result);
            }
        } finally {
            Files.deleteIfExists(ran);
        }
    }
}
