package org.jvmreuse.hadoop.warmup;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.SecretKey;
import org.apache.hadoop.mapred.IndexRecord;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.SpillRecord;
import org.apache.hadoop.mapreduce.security.SecureShuffleUtils;
import org.apache.hadoop.mapreduce.task.reduce.ShuffleHeader;

/**
 * Serves map outputs on 127.0.0.1 (an ephemeral port) with the bytes and headers Hadoop 2.2's
 * ShuffleHandler sends ({@code /mapOutput?job=&reduce=&map=a,b}: the URL hash checked, the reply
 * hash, name and version headers, then per map a ShuffleHeader and the partition's IFile bytes),
 * so that the reducer's stock Fetcher runs its whole HTTP path. The JDK's server, not the
 * ShuffleHandler itself: a slot never runs the ShuffleHandler (it lives in the NodeManager), and
 * its Netty thread pools and metrics would be more a warm-up must clean up after.
 * Connections close after each reply, so no keep-alive connection or timer outlives the warm-up.
 */
final class MapOutputHttpServer implements AutoCloseable {
    private final HttpServer server;
    private final Path localDir;
    private final SecretKey secret;
    private final JobConf conf;

    MapOutputHttpServer(Path localDir, SecretKey secret, JobConf conf) throws IOException {
        this.localDir = localDir;
        this.secret = secret;
        this.conf = conf;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        server.createContext("/mapOutput", this::serve);
        server.start();
    }

    /** The base the map completion events name, {@code http://127.0.0.1:PORT}. */
    String address() {
        return "http://127.0.0.1:" + port();
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            String urlHash = exchange.getRequestHeaders().getFirst(SecureShuffleUtils.HTTP_HEADER_URL_HASH);
            String message = port() + exchange.getRequestURI().getPath() + "?" + exchange.getRequestURI().getRawQuery();
            try {
                SecureShuffleUtils.verifyReply(urlHash, message, secret);
            } catch (IOException | RuntimeException e) {
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            var headers = exchange.getResponseHeaders();
            headers.set(SecureShuffleUtils.HTTP_HEADER_REPLY_URL_HASH,
                    SecureShuffleUtils.generateHash(urlHash.getBytes(StandardCharsets.UTF_8), secret));
            headers.set(ShuffleHeader.HTTP_HEADER_NAME, ShuffleHeader.DEFAULT_HTTP_HEADER_NAME);
            headers.set(ShuffleHeader.HTTP_HEADER_VERSION, ShuffleHeader.DEFAULT_HTTP_HEADER_VERSION);
            headers.set("Connection", "close");
            exchange.sendResponseHeaders(200, 0);
            int reduce = Integer.parseInt(query.get("reduce"));
            String app = "application_" + query.get("job").substring("job_".length());
            DataOutputStream out = new DataOutputStream(exchange.getResponseBody());
            for (String map : query.get("map").split(",")) {
                Path dir = localDir.resolve("usercache/" + System.getProperty("user.name") + "/appcache/" + app + "/output/" + map);
                IndexRecord index = new SpillRecord(new org.apache.hadoop.fs.Path(dir.resolve("file.out.index").toUri()), conf)
                        .getIndex(reduce);
                new ShuffleHeader(map, index.partLength, index.rawLength, reduce).write(out);
                byte[] bytes = new byte[(int) index.partLength];
                try (RandomAccessFile file = new RandomAccessFile(dir.resolve("file.out").toFile(), "r")) {
                    file.seek(index.startOffset);
                    file.readFully(bytes);
                }
                out.write(bytes);
            }
            out.flush();
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            query.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return query;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
