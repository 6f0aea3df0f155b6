package org.jvmreuse.hadoop.executor;

import static org.jvmreuse.hadoop.names.HadoopNames.LaunchScriptRewriter.MR_APP_MASTER;
import static org.jvmreuse.hadoop.names.HadoopNames.LaunchScriptRewriter.YARN_CHILD;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a MapReduce container's {@code launch_container.sh} (a task's or the MRAppMaster's) into
 * one that runs its JVM program in a pool slot. Everything the script does stays (exports,
 * symlinks, working directory); only its last line changes, from
 * {@code exec /bin/bash -c "$JAVA_HOME/bin/java <opts> <main> ..."} to the same command through
 * the {@code jvmreuse} client, which takes the program's environment, working directory, stdio and
 * signals into the slot, returns its exit code, and starts {@code $JAVA_HOME/bin/java} with the
 * very same arguments when the pool cannot take it, noting why in a file the executor logs.
 */
final class LaunchScriptRewriter {
    /** The JVM programs of MapReduce containers, and what the pool is told they are. */
    enum Program {
        TASK(YARN_CHILD.name(), "task", "task"),
        APP_MASTER(MR_APP_MASTER.name(), "am", "application master");

        final String mainClass;
        /** The client's {@code --kind}: the pool keeps some slots free of application masters. */
        final String kind;
        final String description;

        Program(String mainClass, String kind, String description) {
            this.mainClass = mainClass;
            this.kind = kind;
            this.description = description;
        }
    }

    private static final Pattern JAVA_EXEC = Pattern.compile("(?m)^exec /bin/bash -c \"\\$JAVA_HOME/bin/java (.* ("
            + Pattern.quote(Program.TASK.mainClass) + "|" + Pattern.quote(Program.APP_MASTER.mainClass) + ")( .*)?)$");

    /**
     * A container's launch: its program, its JVM options (the words before the main class), and
     * its script as the lines before the launch, the launch command after {@code java}, and the rest.
     */
    record Launch(Program program, String jvmOptions, String head, String command, String tail) {
    }

    /** The client invocation that replaces {@code $JAVA_HOME/bin/java}: its options, then its class path. */
    private final String client;
    private final String classPath;

    LaunchScriptRewriter(PoolSettings settings) {
        client = "'" + settings.client + "' --socket='" + settings.socket + "' run"
                + " --wait-ms=" + settings.waitMillis
                + " --shared-cp='" + String.join(":", settings.sharedClassPath) + "'";
        // $CLASSPATH is expanded by the inner bash, inside double quotes: no globbing.
        classPath = "-cp \\\"\\$CLASSPATH:" + settings.patchJar + "\\\"";
    }

    /**
     * The MapReduce program a script launches, or null when it launches none (or more than one:
     * a script shape this does not know).
     */
    static Launch launch(String script) {
        Matcher m = JAVA_EXEC.matcher(script);
        if (!m.find()) {
            return null;
        }
        Program program = m.group(2).equals(Program.TASK.mainClass) ? Program.TASK : Program.APP_MASTER;
        String command = m.group(1);
        Launch launch = new Launch(program, command.substring(0, m.start(2) - m.start(1) - 1),
                script.substring(0, m.start()), command, script.substring(m.end()));
        return m.find() ? null : launch;
    }

    /**
     * The script with its program run through the client, which writes why to {@code fallbackNote}
     * if the program goes to a new JVM (none where the path cannot go into the script as it is).
     */
    String rewrite(Launch launch, Path fallbackNote) {
        String note = isShellSafe(fallbackNote.toString()) ? " --fallback-note='" + fallbackNote + "'" : "";
        return launch.head() + "exec /bin/bash -c \"" + client + " --kind=" + launch.program().kind + note + " " + classPath
                + " " + launch.command() + launch.tail();
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
