package org.jvmreuse.hadoop.executor;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a task container's {@code launch_container.sh} into one that runs the task in a pool
 * slot. Everything the script does stays (exports, symlinks, working directory); only its last
 * line changes, from {@code exec /bin/bash -c "$JAVA_HOME/bin/java <opts> YarnChild ..."} to the
 * same command through the {@code jvmreuse} client, which takes the task's environment, working
 * directory, stdio and signals into the slot, returns its exit code, and starts
 * {@code $JAVA_HOME/bin/java} with the very same arguments when the pool cannot take it.
 */
final class LaunchScriptRewriter {
    static final String TASK_MAIN = "org.apache.hadoop.mapred.YarnChild";
    private static final Pattern JAVA_EXEC = Pattern.compile(
            "(?m)^exec /bin/bash -c \"\\$JAVA_HOME/bin/java (.* " + Pattern.quote(TASK_MAIN) + " .*)$");

    /** The client invocation that replaces {@code $JAVA_HOME/bin/java}; fixed by the settings. */
    private final String client;

    LaunchScriptRewriter(PoolSettings settings) {
        client = "'" + settings.client + "' --socket='" + settings.socket + "' run"
                + " --wait-ms=" + settings.waitMillis
                + " --shared-cp='" + String.join(":", settings.sharedClassPath) + "'"
                // $CLASSPATH is expanded by the inner bash, inside double quotes: no globbing.
                + " -cp \\\"\\$CLASSPATH:" + settings.patchJar + "\\\"";
    }

    /** The JVM options of the task a script launches (the words before its main class), or null. */
    static String jvmOptions(String script) {
        Matcher m = JAVA_EXEC.matcher(script);
        return m.find() ? m.group(1).substring(0, m.group(1).indexOf(" " + TASK_MAIN + " ")) : null;
    }

    /** The rewritten script, or null when it does not launch a MapReduce task. */
    String rewrite(String script) {
        Matcher m = JAVA_EXEC.matcher(script);
        if (!m.find()) {
            return null; // not a task
        }
        String rewritten = script.substring(0, m.start()) + "exec /bin/bash -c \"" + client + " " + m.group(1)
                + script.substring(m.end());
        return m.find() ? null : rewritten; // two launches: a script shape this does not know
    }

    /** Whether a path can go into the script between single quotes, inside double quotes. */
    static boolean isShellSafe(String value) {
        for (char c : value.toCharArray()) {
            if (c == '\'' || c == '"' || c == '$' || c == '`' || c == '\\' || c == '\n' || c == '!') {
                return false;
            }
        }
        return true;
    }
}
