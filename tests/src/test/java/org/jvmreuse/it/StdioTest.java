package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Through a shell, byte for byte: what `jvmreuse run` prints is what `java` prints. */
class StdioTest extends OneSlotPoolTest {
    private static String viaShell(String launcher, String script, Path dir) throws Exception {
        String command = script.replace("LAUNCH", launcher + " -cp " + Pool.PROGRAMS + " org.jvmreuse.it.programs.StdioMix");
        Pool.Result result = Pool.exec(List.of("bash", "-c", command), Map.of("JVMREUSE_SOCKET", pool.socket.toString()),
                dir, 60);
        assertEquals(0, result.code(), result.toString());
        return result.out();
    }

    private static void assertSameAsJava(String script, Path dir) throws Exception {
        String java = viaShell(Jdks.DEFAULT, script, dir);
        String pooled = viaShell(Pool.CLIENT + " run", script, dir);
        assertEquals(java, pooled, "for: " + script);
        assertTrue(pooled.contains("out 2"), pooled);
    }

    @Test
    void interleavedOutputAndPipedInput(@TempDir Path dir) throws Exception {
        assertSameAsJava("printf 'a\\nb\\n' | LAUNCH 2>&1", dir);
    }

    @Test
    void aFileTheShellGoesOnWritingTo(@TempDir Path dir) throws Exception {
        assertSameAsJava("rm -f f; { echo before; LAUNCH </dev/null; echo after; } >f 2>&1; cat f", dir);
        assertSameAsJava("rm -f f; echo old >f; LAUNCH </dev/null >>f 2>/dev/null; echo appended >>f; cat f", dir);
        Files.deleteIfExists(dir.resolve("f"));
    }
}
