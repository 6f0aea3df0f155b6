package org.jvmreuse.pool.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSpecTest {
    private static Frame request(String... options) {
        Frame frame = new Frame("run");
        for (String option : options) {
            frame.add("java_arg", option);
        }
        for (String word : List.of("-cp", "lib/x.jar:/abs/y.jar::classes:.", "-Dk=v=w", "a.Main", "1", "two words")) {
            frame.add("java_arg", word);
        }
        return frame.add("cwd", "/work").add("env", "HOME=/root").add("env", "EMPTY=").add("stdout", "/tmp/out");
    }

    private static RunSpec spec(Frame frame) throws ProtocolException {
        return RunSpec.fromFrame(frame, JavaCommandLine.parse(frame.getAll("java_arg")));
    }

    @Test
    void parsesARunRequestLikeTheJavaLauncherWould() throws Exception {
        RunSpec spec = spec(request());
        assertEquals("a.Main", spec.mainClass());
        assertEquals(List.of("/work/lib/x.jar", "/abs/y.jar", "/work", "/work/classes", "/work"), spec.classPath(),
                "an empty entry and . are the working directory, as for java");
        assertEquals(List.of("1", "two words"), spec.args());
        assertEquals(Map.of("k", "v=w"), spec.properties());
        assertEquals(Map.of("HOME", "/root", "EMPTY", ""), spec.environment());
        assertEquals(StreamPath.unchecked("/dev/null"), spec.stdin());
        assertEquals(StreamPath.unchecked("/tmp/out"), spec.stdout());
        assertEquals(RunKind.TASK, spec.kind(), "a run that names no kind is a task");
        assertEquals(List.of(), spec.addOpens());
    }

    @Test
    void carriesTheKindAndTheModulePackagesTheRunNeedsOpenOrExported() throws Exception {
        RunSpec spec = spec(request("--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED").add("kind", "am"));
        assertEquals(RunKind.AM, spec.kind());
        assertEquals(List.of("java.base/java.lang", "java.base/java.util"), spec.addOpens());
        assertEquals(List.of("java.base/sun.nio.ch"), spec.addExports());
        assertEquals(spec, RunSpec.decode(spec.encode()));
        assertEquals(RunKind.TASK, spec(request().add("kind", "task")).kind());
    }

    @Test
    void carriesTheStartUpSettingsTheClientFound() throws Exception {
        RunSpec spec = spec(request("-Xss1m", "-Xss64m").add("umask", "0077")
                .add("rlimit", "core:0:unlimited").add("rlimit", "nofile:1024:524288").add("lc_ctype", "C.UTF-8")
                .add("lc_messages", "C").add("codeset", "UTF-8"));
        assertEquals(new StartupInputs("64m", 077, List.of("core:0:unlimited", "nofile:1024:524288"), "C.UTF-8", "C",
                "UTF-8", List.of("-Xss1m", "-Xss64m", "-Dk=v=w")), spec.startup());
        assertEquals(spec, RunSpec.decode(spec.encode()));
        assertEquals(new StartupInputs("", -1, List.of(), "", "", "", List.of("-Dk=v=w")), spec(request()).startup(),
                "not sent: as the slot's (the options always come with the command line)");
        assertEquals("malformed umask '999': expected octal, such as 0022", assertThrows(ProtocolException.class,
                () -> spec(request().add("umask", "999"))).getMessage());
        assertEquals("malformed rlimit 'core:0': expected NAME:SOFT:HARD", assertThrows(ProtocolException.class,
                () -> spec(request().add("rlimit", "core:0"))).getMessage());
    }

    @Test
    void carriesTheClientsKeyOfEachStreamItHandsDirectly() throws Exception {
        RunSpec spec = spec(request().add("stdout_key", "18446744073709551615:12")
                .add("stderr", "/proc/9/fd/2").add("stderr_key", "64769:4711"));
        assertEquals(new StreamPath("/tmp/out", new FileKey(-1, 12)), spec.stdout(), "st_dev is unsigned");
        assertEquals("18446744073709551615:12", spec.stdout().key().toString());
        assertEquals(new StreamPath("/proc/9/fd/2", new FileKey(64769, 4711)), spec.stderr());
        assertEquals(StreamPath.unchecked("/dev/null"), spec.stdin());
        assertEquals(spec, RunSpec.decode(spec.encode()));
        for (String bad : List.of("12", ":12", "12:", "a:1", "1:2:3", "-1:2")) {
            assertEquals("malformed stdout_key '" + bad + "': expected DEVICE:INODE", assertThrows(ProtocolException.class,
                    () -> spec(request().add("stdout_key", bad))).getMessage());
        }
    }

    @Test
    void survivesTheBinaryRoundTripToASlot() throws Exception {
        String longValue = "x".repeat(200_000);
        RunSpec spec = spec(request().add("env", "BIG=" + longValue).add("shared_cp", "/abs/y.jar"));
        RunSpec back = RunSpec.decode(spec.encode());
        assertEquals(spec, back);
        assertEquals(RunKind.TASK, back.kind());
        assertEquals(longValue, back.environment().get("BIG"));
        assertEquals(List.of("/abs/y.jar"), back.sharedClassPath());
    }

    @Test
    void rejectsBadRequestsWithClearMessages() {
        assertEquals("cwd must be an absolute path, got 'rel'", assertThrows(ProtocolException.class,
                () -> spec(new Frame("run").add("java_arg", "M").add("cwd", "rel"))).getMessage());
        assertEquals("malformed env 'novalue': expected NAME=VALUE", assertThrows(ProtocolException.class,
                () -> spec(request().add("env", "novalue"))).getMessage());
        assertEquals("shared_cp entries must also be on the class path; not on it: [/elsewhere.jar]", assertThrows(ProtocolException.class,
                () -> spec(request().add("shared_cp", "/elsewhere.jar"))).getMessage());
        assertEquals("kind must be task or am, got 'AM'", assertThrows(ProtocolException.class,
                () -> spec(request().add("kind", "AM"))).getMessage());
    }
}
