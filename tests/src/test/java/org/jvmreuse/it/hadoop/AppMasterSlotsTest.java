package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jvmreuse.it.Pool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MRAppMasters in pool slots, on one NodeManager whose pool has 3 slots (AMs may hold 2) and
 * whose YARN takes up to 4 containers, 3 of them AMs, with uber mode turned on for the cluster
 * (JVMREUSE_UBER=1: small jobs run uber, inside their AM): what YARN and the job client rely on works with the AM in a slot
 * (its web UI through the ResourceManager's proxy, job history, container logs, uber mode inside
 * it), and more concurrent jobs than slots all finish, with the pool never giving AMs more than
 * their share.
 */
class AppMasterSlotsTest {
    private static final Pattern APP = Pattern.compile("Submitted application (application_\\d+_\\d+)");
    private static final Pattern AM_RUNNING = Pattern.compile("\"am_running\":(\\d+)");
    private static HadoopCluster cluster;
    private static Path jar;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void startCluster() throws Exception {
        // Hadoop 2.2 counts the AM share in 256 MB units: 2048 / 256 x 0.3125 = 2.5, so 3 AMs of
        // 512 MB, which leave room for one task (a larger share lets AMs fill the node: deadlock)
        cluster = HadoopCluster.start(Map.of("JVMREUSE_UBER", "1",
                "JVMREUSE_MAPRED_SITE_EXTRA", "yarn.app.mapreduce.am.resource.mb=512",
                "JVMREUSE_CAPACITY_SCHEDULER_EXTRA", "yarn.scheduler.capacity.maximum-am-resource-percent=0.3125"),
                1, "--pool", "--slots", "3");
        jar = JobJars.withMarker(cluster.dir, "am");
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** A SleepJob client in the background, its tasks in containers (not uber). */
    private Process sleepJob(int maps, long sleepMillis, String out, Path log) throws Exception {
        return JobJars.sleepJob(cluster, jar, maps, sleepMillis, out, log, "-Dmapreduce.job.ubertask.enable=false");
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Accept", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String appId(Path log) throws Exception {
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline) {
            Matcher m = APP.matcher(Files.readString(log));
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no application id in:\n" + Files.readString(log));
    }

    /**
     * While the job runs, its AM's web services answer through the ResourceManager's proxy (the
     * tracking URL users follow); afterwards the JobHistoryServer has the job and `yarn logs` the
     * AM's syslog.
     */
    @Test
    void webUiHistoryAndLogsOfAnAppMasterInASlot() throws Exception {
        Path log = cluster.dir.resolve("web-client.log");
        Process client = sleepJob(1, 6000, "web", log);
        try {
            String app = appId(log);
            String rm = "http://" + cluster.property("yarn-site.xml", "yarn.resourcemanager.webapp.address");
            HttpResponse<String> info = null;
            long deadline = System.currentTimeMillis() + 120_000;
            while (System.currentTimeMillis() < deadline) {
                info = get(rm + "/proxy/" + app + "/ws/v1/mapreduce/info");
                if (info.statusCode() == 200 && info.body().contains(app)) {
                    break;
                }
                Thread.sleep(300);
            }
            assertTrue(info != null && info.statusCode() == 200 && info.body().contains(app),
                    "the AM's web services did not answer through the RM proxy: " + (info == null ? "" : info.body()));
            String nmLog = Files.readString(cluster.dir.resolve("logs/nodemanager1.log"));
            assertTrue(nmLog.contains(app.replace("application_", "container_") + "_01_000001: application master handed"),
                    "the AM did not run in a slot");
            assertTrue(client.waitFor(180, TimeUnit.SECONDS), "the job did not finish");
            assertEquals(0, client.exitValue(), Files.readString(log));
            String job = app.replace("application_", "job_");
            String jhs = "http://" + cluster.property("mapred-site.xml", "mapreduce.jobhistory.webapp.address");
            HttpResponse<String> history = null;
            for (int i = 0; i < 60 && (history == null || history.statusCode() != 200); i++) {
                history = get(jhs + "/ws/v1/history/mapreduce/jobs/" + job);
                Thread.sleep(500);
            }
            assertTrue(history.body().contains("\"state\":\"SUCCEEDED\""), "history: " + history.body());
            cluster.awaitIdlePools();
            Pool.Result logs = null;
            for (int i = 0; i < 60 && (logs == null || !logs.out().contains("Created MRAppMaster")); i++) {
                Thread.sleep(500); // the NodeManager aggregates the logs once the application's containers ended
                logs = cluster.yarn("logs", "-applicationId", app);
            }
            assertTrue(logs.out().contains("Created MRAppMaster for application appattempt_"),
                    "the AM's syslog is not in its container logs: " + logs);
        } finally {
            client.destroyForcibly();
        }
    }

    /** A small job runs its tasks inside its AM (JVMREUSE_UBER=1: pooled uber), which runs in a slot. */
    @Test
    void uberModeInsideAPooledAppMaster() throws Exception {
        Path input = JobJars.lines(cluster.dir.resolve("data"), "uber-in", 3);
        List<String> args = new ArrayList<>(JobJars.main("SleepJob"));
        args.addAll(List.of("-Dsleep.ms=10", input.toString(),
                cluster.dir.resolve("data/uber").toString()));
        Job uber = cluster.job(jar, args);
        assertTrue(uber.succeeded(), uber.toString());
        assertTrue((uber.result().err() + uber.result().out()).contains("running in uber mode : true"), uber.toString());
        String container = uber.lastJobId().replace("job_", "container_");
        String nmLog = Files.readString(cluster.dir.resolve("logs/nodemanager1.log"));
        assertTrue(nmLog.contains(container + "_01_000001: application master handed to the JVM pool"), "AM not in a slot");
        assertTrue(!nmLog.contains(container + "_01_000002"), "an uber job launched a task container");
        List<String> lines = new ArrayList<>();
        try (Stream<Path> parts = Files.list(cluster.dir.resolve("data/uber"))) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
                lines.addAll(Files.readAllLines(part));
            }
        }
        assertEquals(3, lines.size(), "every map wrote its line: " + lines);
    }

    /**
     * Six jobs at once against 3 slots: YARN runs up to 3 AMs at a time, the pool gives AMs at
     * most 2 slots (the third AM starts in its own JVM) and keeps one for tasks, so no job waits on
     * another's slot; every job finishes with all its output.
     */
    @Test
    void moreConcurrentJobsThanSlotsAllFinish() throws Exception {
        int jobs = 6;
        List<Process> clients = new ArrayList<>();
        int mostAms = 0;
        try {
            for (int j = 0; j < jobs; j++) {
                clients.add(sleepJob(2, 1500, "many-" + j, cluster.dir.resolve("many-" + j + ".log")));
            }
            long deadline = System.currentTimeMillis() + 400_000;
            while (clients.stream().anyMatch(Process::isAlive)) {
                assertTrue(System.currentTimeMillis() < deadline, "the jobs did not all finish in time");
                Pool.Result status = Pool.exec(List.of(Pool.CLIENT.toString(), "--socket", cluster.socket(1).toString(),
                        "status", "--json"), Map.of(), null, 30);
                Matcher m = AM_RUNNING.matcher(status.out());
                assertTrue(m.find(), "no am_running in " + status);
                mostAms = Math.max(mostAms, Integer.parseInt(m.group(1)));
                Thread.sleep(250);
            }
        } finally {
            clients.forEach(Process::destroyForcibly);
        }
        for (int j = 0; j < jobs; j++) {
            assertEquals(0, clients.get(j).exitValue(), Files.readString(cluster.dir.resolve("many-" + j + ".log")));
            try (Stream<Path> parts = Files.list(cluster.dir.resolve("data/many-" + j))) {
                long lines = 0;
                for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).toList()) {
                    lines += Files.readAllLines(part).size();
                }
                assertEquals(2, lines, "job " + j + " lost output");
            }
        }
        assertTrue(mostAms >= 1 && mostAms <= 2, "AMs held " + mostAms + " of the 3 slots at once (cap 2)");
    }
}
