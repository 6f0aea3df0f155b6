package org.jvmreuse.hadoop.executor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.commons.logging.Log;
import org.apache.hadoop.conf.Configuration;

/**
 * The pool's part of a container launch, the same on every Hadoop version: each version's
 * container executor (Hadoop 2.2's {@link PoolContainerExecutor}, 3.x's
 * {@code org.jvmreuse.hadoop3.executor.PoolContainerExecutor}) hands it what its version's launch
 * API gives (the container's id, environment, user and memory, its private launch script and
 * credentials) and runs the script this returns the stock way. It reads the node's pool settings,
 * records the job's shuffle secret, decides pool or stock ({@link SlotFit} and the opt-outs),
 * writes the rewritten script ({@link LaunchScriptRewriter}) and logs one line per container in
 * the executor's log: {@code Container ID: task handed to the JVM pool at ...} or
 * {@code Container ID: stock launch (reason)}, and after a handed-over container that the pool
 * did not take, {@code Container ID: went to a new JVM (reason)}.
 */
public final class PoolLaunch {
    /** In a container's environment, {@code off} sends it down the stock path. */
    public static final String OPT_OUT_VARIABLE = "JVMREUSE_POOL";

    private final Log log;
    private final Configuration conf;
    private final PoolSettings settings;
    private final LaunchScriptRewriter rewriter;
    private final SlotFit fit;

    /**
     * Reads the pool settings of {@code conf} and logs them (or why no container is pooled) in
     * {@code log}, the executor's.
     */
    public PoolLaunch(Configuration conf, Log log) {
        this.log = log;
        this.conf = conf;
        settings = PoolSettings.from(conf);
        rewriter = new LaunchScriptRewriter(settings);
        fit = new SlotFit(settings.slotHeapBytes, settings.slotMemoryMb, defaultHeapBytes());
        if (settings.disabledBecause != null) {
            log.warn("JVM pool not used, every container takes the stock launch path: " + settings.disabledBecause);
        } else {
            log.info("MapReduce tasks" + (settings.appMasters ? " and application masters" : "") + " run in the JVM pool at "
                    + settings.socket + " (client " + settings.client
                    + ", wait " + settings.waitMillis + " ms for a slot; tasks up to a heap of " + (settings.slotHeapBytes >> 20)
                    + " MB and a container of " + settings.slotMemoryMb + " MB)");
        }
    }

    /**
     * Records the container's shuffle secret, decides pool or stock and logs it. Returns the
     * script to run: {@code script} itself (stock), or the rewritten one beside it, which the
     * caller deletes with {@link #done} after the launch.
     */
    public Path prepare(String containerId, Path script, Path tokens, Map<String, String> environment, String user,
            long containerMb) throws IOException {
        recordShuffleSecret(containerId, tokens);
        LaunchScriptRewriter.Launch launch = null;
        String stockReason = stockReason(environment, user);
        Path run = script;
        if (stockReason == null) {
            launch = LaunchScriptRewriter.launch(Files.readString(script, StandardCharsets.UTF_8));
            stockReason = stockReason(launch, containerMb);
            if (stockReason == null) {
                run = script.resolveSibling(script.getFileName() + ".pool");
                Files.writeString(run, rewriter.rewrite(launch, fallbackNote(script)), StandardCharsets.UTF_8);
            }
        }
        if (stockReason == null) {
            log.info("Container " + containerId + ": " + launch.program().description + " handed to the JVM pool at "
                    + settings.socket);
        } else {
            log.info("Container " + containerId + ": stock launch (" + stockReason + ")");
        }
        return run;
    }

    /**
     * After a launch that ran {@code run}: logs why a container handed to the pool went to a new
     * JVM after all (the client's note: the pool refused it, no slot became free, ...), and
     * deletes what {@link #prepare} and the client wrote.
     */
    public void done(String containerId, Path script, Path run) throws IOException {
        if (run.equals(script)) {
            return;
        }
        Files.deleteIfExists(run);
        Path note = fallbackNote(script);
        if (Files.exists(note)) {
            log.info("Container " + containerId + ": went to a new JVM (" + Files.readString(note, StandardCharsets.UTF_8).strip()
                    + ")");
            Files.delete(note);
        }
    }

    /** Where the client of a pooled container notes why it started a new JVM instead. */
    private static Path fallbackNote(Path script) {
        return script.resolveSibling(script.getFileName() + ".fallback");
    }

    /**
     * Records the job's shuffle secret for this node's Shuffle Manager (the MPI shuffle), from
     * any of its containers, pooled or not, as they all run the job's maps. A container's launch
     * never fails for it: without it, the Shuffle Manager refuses the job's reads.
     */
    private void recordShuffleSecret(String containerId, Path tokens) {
        try {
            ShuffleSecretFile.record(tokens, conf);
        } catch (IOException | RuntimeException e) {
            log.warn("Container " + containerId + ": cannot record its job's shuffle secret for the MPI shuffle: " + e);
        }
    }

    /** The heap a JVM started here without -Xmx gets: a quarter of the node's memory. */
    private static long defaultHeapBytes() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean node ? node.getTotalMemorySize() / 4 : Long.MAX_VALUE;
    }

    /** Why a container that launches this program (null: none the pool knows) must take the stock path. */
    private String stockReason(LaunchScriptRewriter.Launch launch, long containerMb) {
        if (launch == null) {
            return "not a MapReduce task or application master";
        }
        if (launch.program() == LaunchScriptRewriter.Program.APP_MASTER && !settings.appMasters) {
            return "application masters are not pooled on this node (" + PoolSettings.APP_MASTERS + "=false)";
        }
        return fit.stockReason(launch.jvmOptions(), containerMb);
    }

    /** Why this container must take the stock path whatever it runs, or null if the pool may take it. */
    private String stockReason(Map<String, String> environment, String user) {
        if (settings.disabledBecause != null) {
            return "no pool: " + settings.disabledBecause;
        }
        if (environment != null && "off".equalsIgnoreCase(environment.get(OPT_OUT_VARIABLE))) {
            return "the job set " + OPT_OUT_VARIABLE + "=off";
        }
        String owner = System.getProperty("user.name");
        if (!owner.equals(user)) {
            return "container of user " + user + ", pool of " + owner;
        }
        return null;
    }
}
