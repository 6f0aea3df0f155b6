package org.jvmreuse.workloads.timing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * JobHistory reads the JobHistoryServer's and the ResourceManager's REST answers as Hadoop 2.2 and
 * 3.x write them (one AM attempt as an object, several as an array), served here by a small HTTP
 * server with the daemons' paths.
 */
class JobHistoryTest {
    private static final String JOB = "job_1700000000000_0007";
    private static final String HISTORY = "/ws/v1/history/mapreduce/jobs/" + JOB;
    private static final String JOB_ANSWER = "{\"job\":{\"id\":\"" + JOB + "\",\"startTime\":1000,\"finishTime\":4000,"
            + "\"uberized\":true,\"state\":\"SUCCEEDED\"}}";
    private static final String APP_ANSWER = "{\"app\":{\"id\":\"application_1700000000000_0007\",\"startedTime\":900}}";
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void oneAttemptIsAnObject() throws Exception {
        JobTiming job = fetch(Map.of(HISTORY, JOB_ANSWER, HISTORY + "/jobattempts",
                "{\"jobAttempts\":{\"jobAttempt\":{\"id\":1,\"startTime\":950,\"containerId\":\"container_1\",\"nodeId\":\"n1:1\"}}}",
                "/ws/v1/cluster/apps/application_1700000000000_0007", APP_ANSWER));
        assertEquals(new JobTiming("it", 1, JOB, 800, 900, 950, "container_1", "n1:1", 1, true, 1000, 4000, 4100), job);
    }

    @Test
    void theLastOfSeveralAttemptsCounts() throws Exception {
        JobTiming job = fetch(Map.of(HISTORY, JOB_ANSWER, HISTORY + "/jobattempts",
                "{\"jobAttempts\":{\"jobAttempt\":[{\"id\":2,\"startTime\":970,\"containerId\":\"container_2\",\"nodeId\":\"n2:1\"},"
                        + "{\"id\":1,\"startTime\":950,\"containerId\":\"container_1\",\"nodeId\":\"n1:1\"}]}}",
                "/ws/v1/cluster/apps/application_1700000000000_0007", APP_ANSWER));
        assertEquals(new JobTiming("it", 1, JOB, 800, 900, 970, "container_2", "n2:1", 2, true, 1000, 4000, 4100), job);
    }

    @Test
    void noAttemptIsAnError() {
        IOException e = assertThrows(IOException.class, () -> fetch(Map.of(HISTORY, JOB_ANSWER, HISTORY + "/jobattempts",
                "{\"jobAttempts\":{}}", "/ws/v1/cluster/apps/application_1700000000000_0007", APP_ANSWER)));
        assertTrue(e.getMessage().contains("no AM attempt"), e.getMessage());
    }

    @Test
    void anAnswerThatIsNotJsonIsAnError() {
        IOException e = assertThrows(IOException.class, () -> fetch(Map.of(HISTORY, "<html>busy</html>")));
        assertTrue(e.getMessage().contains("no finished job in time"), e.getMessage());
    }

    /** The timing of JOB, with {@code answers} served by path (404 for any other path). */
    private JobTiming fetch(Map<String, String> answers) throws IOException, InterruptedException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String answer = answers.get(exchange.getRequestURI().getPath());
            byte[] body = (answer == null ? "{}" : answer).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer == null ? 404 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        String address = "127.0.0.1:" + server.getAddress().getPort();
        Configuration conf = new Configuration(false);
        conf.set("mapreduce.jobhistory.webapp.address", address);
        conf.set("yarn.resourcemanager.webapp.address", address);
        List<JobTiming> jobs = JobHistory.of(conf).fetch(List.of(new IterationTiming("it", 1, JOB, 800, 4100, 0)), 1000);
        assertEquals(1, jobs.size());
        return jobs.get(0);
    }
}
