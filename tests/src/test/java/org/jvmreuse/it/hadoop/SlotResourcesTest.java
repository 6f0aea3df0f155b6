package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jvmreuse.it.Pool;
import org.junit.jupiter.api.Test;

/**
 * 25 jobs in a row through one pool of three slots, their MRAppMasters in the slots as well as
 * their tasks (two maps each, the job jar reloaded for every run): 75 runs, each checked to have
 * run in the pool, each job's output checked. An AM keeps its slot about 5 s after its job has
 * ended (MRAppMaster.shutDownJob sleeps before it exits), so the next job's AM and tasks take the
 * two other slots. Each slot's loaded classes, Metaspace, threads, open fds and listening ports
 * at the end are within 10% of what they were after its first AM, measured from outside (jcmd
 * after a full GC, /proc) between groups of jobs: a slot's first AM loads about 2,000 classes of
 * the AM and its web app, which then stay, and which slot an AM gets depends on timing. The pool
 * compiles with C1 only: with tiered compilation, Metaspace also holds C2's profiling data of hot
 * methods, which grows for several hundred runs (here 20.3 to 22.4 MB over 300 tasks while loaded
 * classes went from 4,379 to 4,382); without it, Metaspace holds class metadata alone, where a
 * leaked task loader would show. On Hadoop 2.2; Hadoop3SlotResourcesTest runs the same on 3.5.0.
 */
class SlotResourcesTest {
    private static final int MAPS = 2;
    private static final int SLOTS = 3;
    private static final Pattern AM_RUN = Pattern.compile("(?m) run \\d+ \\(am\\): org\\.apache\\.hadoop\\.mapreduce\\.v2\\.app\\.MRAppMaster exit ");
    /** Jobs between measurements (each group from one client): 25 in all, where a leak per run shows as in 50. */
    private static final int[] GROUPS = {5, 5, 15};

    /** The jvmreuse-cluster options that pick the cluster's Hadoop: none, the default (2.2). */
    List<String> hadoopVersion() {
        return List.of();
    }

    @Test
    void jobsInARowAndTheirAppMastersLeaveEverySlotFlat() throws Exception {
        // room for a job's AM and both its maps beside the previous AM; a task whose slot is still
        // cleaning up after its previous run waits for it rather than start a JVM of its own
        Map<String, String> env = Map.of("JVMREUSE_JVM_OPTS", "-XX:TieredStopAtLevel=1",
                "JVMREUSE_YARN_SITE_EXTRA", "jvmreuse.pool.wait-ms=30000");
        List<String> options = new ArrayList<>(List.of("--pool", "--slots", Integer.toString(SLOTS), "--nm-memory", "3072"));
        options.addAll(hadoopVersion());
        try (HadoopCluster cluster = HadoopCluster.start(env, 1, options.toArray(String[]::new))) {
            Path jar = JobJars.withMarker(cluster.newDir("jars"), "many");
            Path input = JobJars.lines(cluster.dir.resolve("data"), "many", MAPS);
            String output = cluster.dir.resolve("data/out").toString();
            long before = cluster.pooledRuns();
            Map<Long, Map<String, Long>> baseline = new TreeMap<>();
            Map<Long, Integer> amsAtBaseline = new TreeMap<>();
            Map<Long, Map<String, Long>> atEnd = Map.of();
            int jobs = 0;
            for (int group = 0; group < GROUPS.length; group++) {
                runJobs(cluster, jar, GROUPS[group], jobs, input, output);
                jobs += GROUPS[group];
                Map<Long, Integer> ams = appMasterRuns(cluster);
                atEnd = measureSlots(cluster);
                for (long pid : atEnd.keySet()) {
                    // from its first AM on; a slot that served none before the last group, from there
                    if (group < GROUPS.length - 1 && !baseline.containsKey(pid)
                            && (ams.getOrDefault(pid, 0) > 0 || group == GROUPS.length - 2)) {
                        baseline.put(pid, atEnd.get(pid));
                        amsAtBaseline.put(pid, ams.getOrDefault(pid, 0));
                    }
                }
            }
            assertEquals(jobs * (MAPS + 1), cluster.pooledRuns() - before, "every AM and task ran in the pool");
            Map<Long, Integer> ams = appMasterRuns(cluster);
            assertEquals(jobs, ams.values().stream().mapToInt(Integer::intValue).sum(), "AM runs in the slots' logs: " + ams);
            assertEquals(baseline.keySet(), atEnd.keySet(), "the same slot JVMs served throughout");
            assertEquals(SLOTS, sharedLoadersMade(cluster).stream().filter(n -> n == 1).count(),
                    "each slot made one loader of Hadoop's jars, its warm-up's, and its AMs and tasks used it: "
                            + sharedLoadersMade(cluster));
            Map<Long, Long> peers = heldToAPeer(baseline, amsAtBaseline, ams);
            System.out.println("slots (pid: measures) after their first AM " + baseline + ", at the end " + atEnd
                    + "; AMs each had served then " + amsAtBaseline + " and at the end " + ams + "; held to a peer's: " + peers);
            for (long pid : atEnd.keySet()) {
                for (String measure : List.of("classes", "metaspace", "threads", "fds", "listening ports")) {
                    long start = baseline.get(pid).get(measure);
                    long end = atEnd.get(pid).get(measure);
                    String from = peers.containsKey(pid) ? "slot pid " + peers.get(pid) + "'s"
                            : "after " + amsAtBaseline.get(pid) + " AMs in it";
                    assertTrue(end <= start * 1.10, "slot pid " + pid + ": " + measure + " grew from " + start
                            + " (" + from + ") to " + end + " (after " + ams.get(pid)
                            + " AMs, " + jobs + " jobs); all: " + baseline + " -> " + atEnd);
                }
            }
        }
    }

    /**
     * A slot whose first AM came in the last group has no measure after its first AM (an AM
     * mostly takes the slot that ran the last one, so on 3.x, whose AM leaves its slot sooner, one
     * slot may take all AMs of the first groups): it is held to the measures of the first slot
     * that had one, as every slot loads the same classes for its first AM.
     */
    private static Map<Long, Long> heldToAPeer(Map<Long, Map<String, Long>> baseline, Map<Long, Integer> amsAtBaseline,
                                               Map<Long, Integer> ams) {
        long peer = amsAtBaseline.entrySet().stream().filter(e -> e.getValue() > 0).findFirst().orElseThrow().getKey();
        Map<Long, Long> peers = new TreeMap<>();
        for (long pid : baseline.keySet()) {
            if (amsAtBaseline.get(pid) == 0 && ams.get(pid) > 0) {
                baseline.put(pid, baseline.get(peer));
                peers.put(pid, peer);
            }
        }
        return peers;
    }

    private static void runJobs(HadoopCluster cluster, Path jar, int count, int first, Path input, String output)
            throws Exception {
        List<String> args = new ArrayList<>(JobJars.main("ManyJobs"));
        // no speculative attempts (a slow map under load gets one): each job runs its AM and two maps
        args.add("-Dmapreduce.map.speculative=false");
        args.addAll(List.of(Integer.toString(count), Integer.toString(first), input.toString(), output));
        Job jobs = cluster.job(jar, args);
        assertTrue(jobs.succeeded(), "jobs " + first + " to " + (first + count - 1) + ":\n" + jobs);
        waitUntilIdle(cluster);
    }

    /** Until the pool runs nothing: a job's AM ends about 5 s after its client has seen the job end. */
    private static void waitUntilIdle(HadoopCluster cluster) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!cluster.poolStatus(1).contains("running 0, queued 0")) {
            assertTrue(System.nanoTime() < deadline, "the pool is still busy: " + cluster.poolStatus(1));
            Thread.sleep(200);
        }
    }

    /** AM runs in each slot (by pid), from the log of its rank. */
    private static Map<Long, Integer> appMasterRuns(HadoopCluster cluster) throws Exception {
        Map<Long, Integer> runs = new TreeMap<>();
        Matcher slot = Pattern.compile("(?m)^slot \\d+: rank (\\d+) pid (\\d+) ").matcher(cluster.poolStatus(1));
        while (slot.find()) {
            Path log = cluster.dir.resolve("pool1/logs/slot-rank" + slot.group(1) + ".log");
            runs.put(Long.parseLong(slot.group(2)), (int) AM_RUN.matcher(Files.readString(log)).results().count());
        }
        return runs;
    }

    /** How many shared class loaders each slot made, from the logs of its rank. */
    private static List<Long> sharedLoadersMade(HadoopCluster cluster) throws Exception {
        List<Long> made = new ArrayList<>();
        Matcher slot = Pattern.compile("(?m)^slot \\d+: rank (\\d+) pid (\\d+) ").matcher(cluster.poolStatus(1));
        while (slot.find()) {
            Path log = cluster.dir.resolve("pool1/logs/slot-rank" + slot.group(1) + ".log");
            made.add(Files.readString(log).lines().filter(l -> l.contains("new shared class loader for ")).count());
        }
        return made;
    }

    /** Loaded classes, Metaspace used, lasting threads, open fds and listening TCP ports of each slot JVM. */
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
            m.put("listening ports", listeningPorts(pid));
            slots.put(pid, m);
        }
        assertEquals(SLOTS, slots.size(), "slot JVMs: " + slots);
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

    /**
     * TCP sockets of the process in LISTEN state: its socket fds (socket:[inode]) found in the
     * network namespace's tables. An AM's RPC and web ports that outlive it would show here; MPI's
     * own listeners are there from the start.
     */
    private static long listeningPorts(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException closed) {
                    // closed meanwhile
                }
            }
        }
        long listening = 0;
        for (String table : List.of("tcp", "tcp6")) {
            Path file = Path.of("/proc/" + pid + "/net/" + table);
            for (String line : Files.exists(file) ? Files.readAllLines(file) : List.<String>of()) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) { // 0A: TCP_LISTEN
                    listening++;
                }
            }
        }
        return listening;
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
