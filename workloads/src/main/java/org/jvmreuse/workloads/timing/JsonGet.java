package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.json.JSONException;
import org.json.JSONObject;

/**
 * A GET of a Hadoop daemon's REST API, answered in JSON (5 s connect and read time-outs). Parsed
 * with the jar's own org.json (relocated), not Hadoop's JSON library, which differs by version.
 */
final class JsonGet {
    private static final int HTTP_TIMEOUT_MS = 5000;

    private JsonGet() {
    }

    /**
     * The answer's object. An answer other than 200 (e.g. 404: the daemon does not know the job
     * yet) or one that is not a JSON object is an IOException.
     */
    static JSONObject fetch(URL url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) url.openConnection();
        connection.setConnectTimeout(HTTP_TIMEOUT_MS);
        connection.setReadTimeout(HTTP_TIMEOUT_MS);
        connection.setRequestProperty("Accept", "application/json");
        try (InputStream in = connection.getInputStream()) {
            return new JSONObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (JSONException e) {
            throw new IOException(url + ": not a JSON object: " + e.getMessage(), e);
        } finally {
            connection.disconnect();
        }
    }

    /** {@code object}'s member {@code key} if it is an object, else an empty one (as a missing node reads). */
    static JSONObject object(JSONObject object, String key) {
        JSONObject member = object.optJSONObject(key);
        return member == null ? new JSONObject() : member;
    }
}
