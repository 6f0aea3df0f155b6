package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jvmreuse.it.Pool;
import org.junit.jupiter.api.Test;

/**
 * 300 Hadoop tasks through one pool of two slots (four wordcount jobs of 75 maps, the job jar
 * reloaded for every task): each slot's loaded classes, Metaspace, threads and open files after
 * the last job are within 10% of what they were after the first (the warm-up), measured from
 * outside with jcmd after a full GC. The pool compiles with C1 only: with tiered compilation,
 * Metaspace also holds C2's profiling data of hot methods, which grows for several hundred runs
 * (here 20.3 to 22.4 MB over 300 tasks while loaded classes went from 4,379 to 4,382); without
 * it, Metaspace holds class metadata alone, where a leaked task loader would show.
 */
class SlotResourcesTest {
    private static final int JOBS = 4;
    private static final int MAPS = 75;

    @Test
    void threeHundredTasksLeaveEverySlotFlat() throws Exception {
        try (HadoopCluster cluster = HadoopCluster.start(Map.of("JVMREUSE_JVM_OPTS", "-XX:TieredStopAtLevel=1"), 1,
                "--pool", "--slots", "2")) {
            Path input = cluster.newDir("many");
            for (int i = 0; i < MAPS; i++) {
                Files.writeString(input.resolve("f" + i + ".txt"), "alpha beta gamma " + i + "\n");
            }
            Map<Long, Map<String, Long>> afterWarmUp = null;
            long before = cluster.pooledRuns();
            for (int job = 0; job < JOBS; job++) {
                // no speculative attempts: tasks queued for one of the two slots look slow to the
                // speculator, and its extra attempts would make the count of pooled runs a matter of timing
                Job wc = cluster.example("wordcount", List.of("-Dmapreduce.map.speculative=false",
                        "-Dmapreduce.reduce.speculative=false"), input.toString(),
                        cluster.dir.resolve("data/wc-" + job).toString());
                assertTrue(wc.succeeded(), "job " + job + ":\n" + wc);
                if (job == 0) {
                    afterWarmUp = measureSlots(cluster);
                }
            }
            assertEquals(JOBS * (MAPS + 1), cluster.pooledRuns() - before, "every task ran in the pool");
            Map<Long, Map<String, Long>> atEnd = measureSlots(cluster);
            assertEquals(afterWarmUp.keySet(), atEnd.keySet(), "the same slot JVMs served throughout");
            for (long pid : atEnd.keySet()) {
                for (String measure : List.of("classes", "metaspace", "threads", "fds")) {
                    long start = afterWarmUp.get(pid).get(measure);
                    long end = atEnd.get(pid).get(measure);
                    assertTrue(end <= start * 1.10, "slot pid " + pid + ": " + measure + " grew from " + start
                            + " after the first job to " + end + " after " + JOBS * (MAPS + 1) + " tasks; all: "
                            + afterWarmUp + " -> " + atEnd);
                }
            }
        }
    }

    /** Loaded classes, Metaspace used, lasting threads and open fds of each slot JVM (not the manager). */
    private static Map<Long, Map<String, Long>> measureSlots(HadoopCluster cluster) throws Exception {
        Map<Long, Map<String, Long>> slots = new TreeMap<>();
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        for (long pid : slotPids(cluster.poolStatus(1))) {
            Pool.exec(List.of(jcmd, Long.toString(pid), "GC.run"), Map.of(), null, 60);
            Pool.Result perf = Pool.exec(List.of(jcmd, Long.toString(pid), "PerfCounter.print"), Map.of(), null, 60);
            assertEquals(0, perf.code(), "jcmd failed: " + perf);
            Map<String, Long> counters = new HashMap<>();
            for (String line : perf.out().split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0 && line.substring(eq + 1).matches("\\d+")) {
                    counters.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1)));
                }
            }
            Map<String, Long> m = new HashMap<>();
            m.put("classes", counters.get("java.cls.loadedClasses") + counters.get("java.cls.sharedLoadedClasses")
                    - counters.get("java.cls.unloadedClasses") - counters.get("java.cls.sharedUnloadedClasses"));
            m.put("metaspace", counters.get("sun.gc.metaspace.used"));
            m.put("threads", lastingThreads(jcmd, pid));
            try (var fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
                m.put("fds", fds.count());
            }
            slots.put(pid, m);
        }
        assertEquals(2, slots.size(), "two slot JVMs: " + slots);
        return slots;
    }

    /**
     * Java threads that stay: all of the JVM's Java threads but the workers of pools that end them after an
     * idle time by design (the JDK's process reaper, Hadoop's shared IPC sending pool, which the
     * slot adopts) and the JIT's compiler threads, which come and go with its load. How many of
     * those run at a given moment is timing, not something a task left; a thread a task leaves
     * (a timer, a worker of its own pool) is counted.
     */
    private static long lastingThreads(String jcmd, long pid) throws Exception {
        Pool.Result dump = Pool.exec(List.of(jcmd, Long.toString(pid), "Thread.print"), Map.of(), null, 60);
        assertEquals(0, dump.code(), "jcmd Thread.print failed: " + dump);
        List<String> names = Pattern.compile("(?m)^\"([^\"]+)\" #\\d+").matcher(dump.out()).results().map(r -> r.group(1))
                .filter(n -> !n.equals("process reaper") && !n.startsWith("IPC Parameter Sending Thread")
                        && !n.contains("CompilerThread"))
                .toList();
        return names.size();
    }

    /** The pids of the pool's slots as `jvmreuse status` lists them (not its manager or spares). */
    private static List<Long> slotPids(String status) {
        List<Long> pids = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^slot \\d+: rank \\d+ pid (\\d+) ").matcher(status);
        while (m.find()) {
            pids.add(Long.parseLong(m.group(1)));
        }
        return pids;
    }
}
