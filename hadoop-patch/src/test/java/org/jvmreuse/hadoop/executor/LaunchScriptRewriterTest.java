package org.jvmreuse.hadoop.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rewritten launch script, run by bash with a stand-in client that records its arguments. */
class LaunchScriptRewriterTest {
    @TempDir
    Path dir;

    private static final String TASK_COMMAND = "$JAVA_HOME/bin/java -Djava.net.preferIPv4Stack=true "
            + "-Dhadoop.metrics.log.level=WARN  -Xmx200m -Djava.io.tmpdir=$PWD/tmp "
            + "-Dlog4j.configuration=container-log4j.properties -Dyarn.app.container.log.dir=LOGDIR "
            + "-Dyarn.app.container.log.filesize=0 -Dhadoop.root.logger=INFO,CLA "
            + "org.apache.hadoop.mapred.YarnChild 127.0.0.1 41234 attempt_1_0001_m_000000_0 2 "
            + "1>LOGDIR/stdout 2>LOGDIR/stderr ";

    /** The shape ContainerLaunch (Hadoop 2.2.0) writes for a task container. */
    private String stockScript(String command) {
        return "#!/bin/bash\n\n"
                + "export CLASSPATH=\"$PWD:job.jar/job.jar:job.jar/classes/:job.jar/lib/*:$PWD/*:/opt/hadoop/lib/*\"\n"
                + "export JAVA_HOME=\"" + dir.resolve("jdk") + "\"\n"
                + "export JVM_PID=\"$$\"\n"
                + "ln -sf \"/local/filecache/10/job.jar\" \"job.jar\"\n"
                + "exec /bin/bash -c \"" + command.replace("LOGDIR", dir.resolve("logs").toString()) + "\"\n";
    }

    private PoolSettings settings(Path client) {
        return new PoolSettings(dir.resolve("pool/pool.sock").toString(), client.toString(), 1500, "512m", 0, true,
                List.of("/opt/hadoop/lib/*"), "/opt/jvmreuse/hadoop-patch.jar");
    }

    @Test
    void taskScriptRunsTheClientWithTheTaskArgumentsUnchanged() throws Exception {
        Path client = dir.resolve("client");
        Files.writeString(client, "#!/bin/bash\nprintf '%s\\n' \"$@\" > " + dir.resolve("args") + "\necho task-out\n");
        assertTrue(client.toFile().setExecutable(true));
        Files.createDirectories(dir.resolve("logs"));
        Files.createDirectories(dir.resolve("work"));
        Files.createFile(dir.resolve("work/decoy.jar")); // a glob that must not expand

        LaunchScriptRewriter.Launch launch = LaunchScriptRewriter.launch(stockScript(TASK_COMMAND));
        assertNotNull(launch);
        assertEquals(LaunchScriptRewriter.Program.TASK, launch.program());
        String rewritten = new LaunchScriptRewriter(settings(client)).rewrite(launch, dir.resolve("launch_container.sh.fallback"));
        assertTrue(rewritten.startsWith(stockScript(TASK_COMMAND).substring(0, stockScript(TASK_COMMAND).indexOf("exec "))),
                "everything before the last line stays as it was");
        Path script = dir.resolve("launch_container.sh");
        Files.writeString(script, rewritten);
        Process p = new ProcessBuilder("bash", script.toString()).directory(dir.resolve("work").toFile()).start();
        assertEquals(0, p.waitFor());

        String work = dir.resolve("work").toRealPath().toString();
        List<String> expected = List.of("--socket=" + dir.resolve("pool/pool.sock"), "run", "--wait-ms=1500",
                "--shared-cp=/opt/hadoop/lib/*:/opt/jvmreuse/hadoop-patch.jar", "--kind=task",
                "--fallback-note=" + dir.resolve("launch_container.sh.fallback"),
                "-cp", work + ":job.jar/job.jar:job.jar/classes/:job.jar/lib/*:" + work + "/*:/opt/hadoop/lib/*"
                        + ":/opt/jvmreuse/hadoop-patch.jar",
                "-Djava.net.preferIPv4Stack=true", "-Dhadoop.metrics.log.level=WARN", "-Xmx200m",
                "-Djava.io.tmpdir=" + work + "/tmp", "-Dlog4j.configuration=container-log4j.properties",
                "-Dyarn.app.container.log.dir=" + dir.resolve("logs"), "-Dyarn.app.container.log.filesize=0",
                "-Dhadoop.root.logger=INFO,CLA", "org.apache.hadoop.mapred.YarnChild", "127.0.0.1", "41234",
                "attempt_1_0001_m_000000_0", "2");
        assertEquals(expected, Files.readAllLines(dir.resolve("args")));
        assertEquals("task-out\n", Files.readString(dir.resolve("logs/stdout")), "stdout still goes to the container log");
    }

    @Test
    void theTaskJvmOptionsAreTheWordsBeforeItsMainClass() {
        assertEquals("-Djava.net.preferIPv4Stack=true -Dhadoop.metrics.log.level=WARN  -Xmx200m -Djava.io.tmpdir=$PWD/tmp "
                + "-Dlog4j.configuration=container-log4j.properties -Dyarn.app.container.log.dir=" + dir.resolve("logs")
                + " -Dyarn.app.container.log.filesize=0 -Dhadoop.root.logger=INFO,CLA",
                LaunchScriptRewriter.launch(stockScript(TASK_COMMAND)).jvmOptions());
    }

    /** The shape YARNRunner (Hadoop 2.2.0) writes for the MRAppMaster: no arguments after the main class. */
    @Test
    void applicationMasterRunsThroughTheClientAsKindAm() throws Exception {
        String am = "$JAVA_HOME/bin/java -Dlog4j.configuration=container-log4j.properties -Dyarn.app.container.log.dir=LOGDIR "
                + "-Dyarn.app.container.log.filesize=0 -Dhadoop.root.logger=INFO,CLA  -Xmx512m "
                + "--add-opens java.base/java.lang=ALL-UNNAMED org.apache.hadoop.mapreduce.v2.app.MRAppMaster "
                + "1>LOGDIR/stdout 2>LOGDIR/stderr ";
        LaunchScriptRewriter.Launch launch = LaunchScriptRewriter.launch(stockScript(am));
        assertNotNull(launch);
        assertEquals(LaunchScriptRewriter.Program.APP_MASTER, launch.program());
        assertTrue(launch.jvmOptions().endsWith("-Xmx512m --add-opens java.base/java.lang=ALL-UNNAMED"), launch.jvmOptions());
        Path client = dir.resolve("client");
        Files.writeString(client, "#!/bin/bash\nprintf '%s\\n' \"$@\" > " + dir.resolve("args") + "\n");
        assertTrue(client.toFile().setExecutable(true));
        Files.createDirectories(dir.resolve("logs"));
        Path script = dir.resolve("launch_container.sh");
        Files.writeString(script, new LaunchScriptRewriter(settings(client)).rewrite(launch, dir.resolve("it's.fallback")));
        assertEquals(0, new ProcessBuilder("bash", script.toString()).directory(dir.toFile()).start().waitFor());
        List<String> args = Files.readAllLines(dir.resolve("args"));
        assertEquals("--kind=am", args.get(4));
        assertEquals("-cp", args.get(5), "no note where its path cannot go into the script as it is");
        assertEquals(List.of("-Xmx512m", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "org.apache.hadoop.mapreduce.v2.app.MRAppMaster"), args.subList(args.size() - 4, args.size()));
    }

    @Test
    void unknownShapesAreLeftAlone() {
        assertNull(LaunchScriptRewriter.launch("#!/bin/bash\nexec /bin/bash -c \"/usr/bin/java org.apache.hadoop.mapred.YarnChild a\"\n"),
                "java not from $JAVA_HOME");
        assertNull(LaunchScriptRewriter.launch(stockScript(TASK_COMMAND) + stockScript(TASK_COMMAND).lines()
                .filter(l -> l.startsWith("exec")).findFirst().orElseThrow() + "\n"), "two launches");
        assertNull(LaunchScriptRewriter.launch(stockScript(TASK_COMMAND.replace("YarnChild", "YarnChildish"))), "another main class");
    }

    @Test
    void settingsRefuseWhatTheScriptCannotQuoteOrRun() {
        assertNotNull(new PoolSettings("", "/bin/true", 0, "512m", 0, true, List.of(), "/x.jar").disabledBecause);
        assertNotNull(new PoolSettings("/tmp/p.sock", new File(dir.toFile(), "missing").toString(), 0, "512m", 0, true, List.of(),
                "/x.jar").disabledBecause);
        assertNotNull(new PoolSettings("/tmp/it's.sock", "/bin/true", 0, "512m", 0, true, List.of(), "/x.jar").disabledBecause);
        assertNotNull(new PoolSettings("/tmp/p.sock", "/bin/true", 0, "512m", 0, true, List.of("/opt/$X/*"), "/x.jar").disabledBecause);
        assertNotNull(new PoolSettings("/tmp/p.sock", "/bin/true", 0, "512m", 0, true, List.of(), null).disabledBecause);
        assertNull(new PoolSettings("/tmp/p.sock", "/bin/true", 0, "512m", 0, true, List.of("/opt/lib/*"), "/x.jar").disabledBecause);
        PoolSettings noHeap = new PoolSettings("/tmp/p.sock", "/bin/true", 0, "", 0, true, List.of("/opt/lib/*"), "/x.jar");
        assertTrue(noHeap.disabledBecause.contains("jvmreuse.pool.slot-heap"), noHeap.disabledBecause);
        assertNotNull(new PoolSettings("/tmp/p.sock", "/bin/true", 0, "lots", 0, true, List.of("/opt/lib/*"), "/x.jar").disabledBecause);
        PoolSettings heap = new PoolSettings("/tmp/p.sock", "/bin/true", 0, "1g", 0, true, List.of("/opt/lib/*"), "/x.jar");
        assertEquals(1L << 30, heap.slotHeapBytes);
        assertEquals(2048, heap.slotMemoryMb, "twice the heap unless set");
        assertEquals(700, new PoolSettings("/tmp/p.sock", "/bin/true", 0, "1g", 700, true, List.of(), "/x.jar").slotMemoryMb);
    }
}
