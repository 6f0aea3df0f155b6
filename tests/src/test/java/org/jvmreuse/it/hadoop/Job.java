package org.jvmreuse.it.hadoop;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jvmreuse.it.Pool.Result;

/** What a job client printed: exit code, output, and the counters it listed at the end. */
public record Job(Result result) {
    private static final Pattern JOB_ID = Pattern.compile("Running job: (job_\\d+_\\d+)");
    private static final Pattern COUNTER = Pattern.compile("^\\t\\t(.+?)=(\\d+)$");
    private static final Pattern GROUP = Pattern.compile("^\\t([^\\t=]+)$");

    public boolean succeeded() {
        return result.code() == 0;
    }

    /** The last job this client ran (some examples run two). */
    public String lastJobId() {
        List<String> ids = jobIds();
        return ids.get(ids.size() - 1);
    }

    /** Every job this client ran, in order. */
    public List<String> jobIds() {
        Matcher m = JOB_ID.matcher(result.err() + result.out());
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        if (ids.isEmpty()) {
            throw new AssertionError("no job id in the client's output:\n" + result);
        }
        return ids;
    }

    /** Counters of the last job, as "Group/Name" -> value. */
    public Map<String, Long> counters() {
        Map<String, Long> counters = new LinkedHashMap<>();
        String group = "";
        for (String line : (result.err() + result.out()).split("\n")) {
            if (line.contains("Counters: ")) {
                counters.clear(); // a later job's listing replaces an earlier one
                continue;
            }
            Matcher g = GROUP.matcher(line);
            Matcher c = COUNTER.matcher(line);
            if (c.matches()) {
                counters.put(group + "/" + c.group(1), Long.parseLong(c.group(2)));
            } else if (g.matches()) {
                group = g.group(1).trim();
            }
        }
        return counters;
    }

    @Override
    public String toString() {
        return result.toString();
    }
}
