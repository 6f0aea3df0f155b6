package org.jvmreuse.pool.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSpecTest {
    private static Frame request() {
        return new Frame("run").add("main", "a.Main").add("cwd", "/work").add("cp", "lib/x.jar:/abs/y.jar::classes")
                .add("arg", "1").add("arg", "two words").add("prop", "k=v=w").add("env", "HOME=/root")
                .add("env", "EMPTY=").add("stdout", "/tmp/out");
    }

    @Test
    void parsesARunRequestLikeTheJavaLauncherWould() throws Exception {
        RunSpec spec = RunSpec.fromFrame(request());
        assertEquals("a.Main", spec.mainClass());
        assertEquals(List.of("/work/lib/x.jar", "/abs/y.jar", "/work/classes"), spec.classPath());
        assertEquals(List.of("1", "two words"), spec.args());
        assertEquals(Map.of("k", "v=w"), spec.properties());
        assertEquals(Map.of("HOME", "/root", "EMPTY", ""), spec.environment());
        assertEquals("/dev/null", spec.stdin());
        assertEquals("/tmp/out", spec.stdout());
    }

    @Test
    void survivesTheBinaryRoundTripToASlot() throws Exception {
        String longValue = "x".repeat(200_000);
        RunSpec spec = RunSpec.fromFrame(request().add("env", "BIG=" + longValue).add("shared_cp", "/abs/y.jar"));
        RunSpec back = RunSpec.decode(spec.encode());
        assertEquals(spec, back);
        assertEquals(longValue, back.environment().get("BIG"));
        assertEquals(List.of("/abs/y.jar"), back.sharedClassPath());
    }

    @Test
    void rejectsBadRequestsWithClearMessages() {
        assertEquals("cwd must be an absolute path, got 'rel'", assertThrows(ProtocolException.class,
                () -> RunSpec.fromFrame(new Frame("run").add("main", "M").add("cp", "/x").add("cwd", "rel"))).getMessage());
        assertEquals("malformed prop 'novalue': expected NAME=VALUE", assertThrows(ProtocolException.class,
                () -> RunSpec.fromFrame(request().add("prop", "novalue"))).getMessage());
        assertEquals("shared_cp entries must also be on cp; not on cp: [/elsewhere.jar]", assertThrows(ProtocolException.class,
                () -> RunSpec.fromFrame(request().add("shared_cp", "/elsewhere.jar"))).getMessage());
    }
}
