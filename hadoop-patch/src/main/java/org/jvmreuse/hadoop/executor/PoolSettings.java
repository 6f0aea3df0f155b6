package org.jvmreuse.hadoop.executor;

import java.io.File;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.jvmreuse.pool.admission.HeapOption;

/**
 * The NodeManager's pool settings (yarn-site.xml), read once when the executor is configured.
 * Without a socket, a client and the slots' heap, every container takes Hadoop's stock launch
 * path.
 */
final class PoolSettings {
    static final String SOCKET = "jvmreuse.pool.socket";
    static final String CLIENT = "jvmreuse.pool.client";
    static final String WAIT_MS = "jvmreuse.pool.wait-ms";
    static final long DEFAULT_WAIT_MS = 2000;
    /** The pool's slot heap ({@code -Xmx} of its JVMs, same syntax): what a pooled task's heap is. */
    static final String SLOT_HEAP = "jvmreuse.pool.slot-heap";
    /** The largest container a slot stands for, in MB; default twice the slot heap. */
    static final String SLOT_MEMORY_MB = "jvmreuse.pool.slot-memory-mb";
    /** Whether MRAppMaster containers may run in slots too (default true). */
    static final String APP_MASTERS = "jvmreuse.pool.appmaster";

    final String socket;
    final String client;
    final long waitMillis;
    /** The slot heap in bytes (-1: not set or not readable). */
    final long slotHeapBytes;
    final long slotMemoryMb;
    final boolean appMasters;
    /** Hadoop's jars (the application class path) plus this jar: kept loaded in the slots. */
    final List<String> sharedClassPath;
    /** This jar, which the slots need for the per-task reset of Hadoop's statics. */
    final String patchJar;
    /** Why pooling is off, or null. */
    final String disabledBecause;

    PoolSettings(String socket, String client, long waitMillis, String slotHeap, long slotMemoryMb, boolean appMasters,
                 List<String> applicationJars, String patchJar) {
        this.socket = socket;
        this.client = client;
        this.waitMillis = waitMillis;
        this.slotHeapBytes = HeapOption.bytes(slotHeap);
        this.slotMemoryMb = slotMemoryMb > 0 ? slotMemoryMb : 2 * (slotHeapBytes >> 20);
        this.appMasters = appMasters;
        this.patchJar = patchJar;
        List<String> shared = new ArrayList<>(applicationJars);
        if (patchJar != null && !shared.contains(patchJar)) { // the application class path may have it
            shared.add(patchJar);
        }
        this.sharedClassPath = List.copyOf(shared);
        this.disabledBecause = check();
    }

    static PoolSettings from(Configuration conf) {
        return new PoolSettings(conf.getTrimmed(SOCKET, ""), conf.getTrimmed(CLIENT, ""),
                conf.getLong(WAIT_MS, DEFAULT_WAIT_MS), conf.getTrimmed(SLOT_HEAP, ""), conf.getLong(SLOT_MEMORY_MB, 0),
                conf.getBoolean(APP_MASTERS, true),
                applicationJars(conf.getTrimmedStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
                        YarnConfiguration.DEFAULT_YARN_APPLICATION_CLASSPATH)),
                ownJar());
    }

    private String check() {
        if (socket.isEmpty() || client.isEmpty()) {
            return SOCKET + " and " + CLIENT + " are not both set";
        }
        if (!new File(client).canExecute()) {
            return CLIENT + " = " + client + " is not an executable file";
        }
        if (patchJar == null) {
            return "the executor was not loaded from a jar, so slots cannot load its task reset";
        }
        if (slotHeapBytes <= 0) {
            return SLOT_HEAP + " (the slots' -Xmx, e.g. 512m) is not set or not a size, so no task can be"
                    + " checked against it";
        }
        if (waitMillis < 0) {
            return WAIT_MS + " must be >= 0, got " + waitMillis;
        }
        for (String value : List.of(socket, client, String.join(":", sharedClassPath))) {
            if (!LaunchScriptRewriter.isShellSafe(value)) {
                return "'" + value + "' contains characters the launch script cannot quote";
            }
        }
        return null;
    }

    /** Jars and jar directories ({@code dir/*}) of the application class path, without variables. */
    private static List<String> applicationJars(String[] applicationClassPath) {
        Set<String> jars = new LinkedHashSet<>();
        for (String entry : applicationClassPath) {
            boolean literal = !entry.contains("$") && !entry.contains("%") && entry.startsWith("/");
            if (literal && (entry.endsWith(".jar") || entry.endsWith("/*"))) {
                jars.add(entry);
            }
        }
        return new ArrayList<>(jars);
    }

    private static String ownJar() {
        try {
            File source = new File(PoolSettings.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return source.isFile() ? source.getAbsolutePath() : null;
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return null;
        }
    }
}
