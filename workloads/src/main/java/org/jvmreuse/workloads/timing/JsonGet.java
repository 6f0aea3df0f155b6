package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;

/** A GET of a Hadoop daemon's REST API, answered in JSON (5 s connect and read time-outs). */
final class JsonGet {
    private static final int HTTP_TIMEOUT_MS = 5000;

    private JsonGet() {
    }

    /** An answer other than 200 (e.g. 404: the daemon does not know the job yet) is an IOException. */
    static JsonNode fetch(URL url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) url.openConnection();
        connection.setConnectTimeout(HTTP_TIMEOUT_MS);
        connection.setReadTimeout(HTTP_TIMEOUT_MS);
        connection.setRequestProperty("Accept", "application/json");
        try (InputStream in = connection.getInputStream()) {
            return new ObjectMapper().readTree(in);
        } finally {
            connection.disconnect();
        }
    }
}
