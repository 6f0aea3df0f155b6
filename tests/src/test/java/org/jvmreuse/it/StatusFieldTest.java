package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The scripts' reader of {@code jvmreuse status --json} (jvmreuse_status_field in
 * job-scripts/lib/core/pool.sh) agrees with a real JSON parser on every top-level scalar, whatever the
 * strings hold, and finds nothing inside strings or nested objects.
 */
class StatusFieldTest {
    private static final String READ_ALL = "source \"$0\"; json=$1; shift; for k; do "
            + "jvmreuse_status_field \"$json\" \"$k\" || echo '<absent>'; printf '\\0'; done";

    @Test
    void everyTopLevelScalarReadsAsAJsonParserReadsIt() throws Exception {
        String json = "{\"pool\":3,\"slots_total\":2,\"free\":0,\"busy\":-1,\"retired\":2,"
                + "\"state\":\"serving\",\"host\":\"n\\\"1\\\\\",\"socket\":\"/tmp/a,\\\"free\\\":9\\\\\\\"}\\n.sock\","
                + "\"mpi\":\"C:\\\\new\\\\table \\u00e9\\/x\\tend\\u001b\",\"ratio\":1.5,\"flag\":true,\"none\":null,"
                + "\"spares\":[4,5],\"latency\":{\"runs\":1},\"slots\":[{\"free\":7,\"state\":\"retired\"}]}";
        JsonNode parsed = new ObjectMapper().readTree(json);
        List<String> keys = new ArrayList<>();
        parsed.getFieldNames().forEachRemaining(keys::add);
        keys.add("nothere");
        Iterator<String> read = read(json, keys).iterator();
        for (String key : keys) {
            JsonNode node = parsed.get(key);
            String expected = node == null || node.isContainerNode() ? "<absent>" : node.isTextual() ? node.getTextValue()
                    : node.toString();
            String value = read.next();
            assertEquals(expected + "\n", value, "member " + key + " of " + json);
        }
    }

    /** What jvmreuse_status_field prints for each of {@code keys} ("<absent>" when it finds none). */
    static List<String> read(String json, List<String> keys) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", "-c", READ_ALL,
                Pool.REPO.resolve("job-scripts/lib/core/pool.sh").toString(), json));
        command.addAll(keys);
        Pool.Result result = Pool.exec(command, Map.of(), null, 30);
        assertEquals(0, result.code(), result.toString());
        return Arrays.asList(result.out().split("\0", -1)).subList(0, keys.size());
    }
}
