package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a JVM sets once at start-up, from its options and from the process that starts it (time
 * zone, locale, encodings, umask, resource limits, the main thread's stack, the input arguments
 * it reports, its IP stack): each setting, run
 * through the client, prints what a new {@code java} with the same options and environment
 * prints, in a slot where the slot can give it, else in the new JVM the client falls back to.
 * On the build's JDK and the newest installed one, one single-slot pool each.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StartupSettingsTest {
    private static final String PROBE = "org.jvmreuse.it.programs.StartupProbe";
    private final Map<String, Pool> pools = new HashMap<>();

    List<String> jdks() throws Exception {
        return Jdks.all();
    }

    @BeforeAll
    void startPools() throws Exception {
        for (String java : jdks()) {
            pools.put(java, Pool.start(1, java));
        }
    }

    @AfterAll
    void stopPools() throws Exception {
        for (Pool pool : pools.values()) {
            pool.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void timeZoneFollowsTheRunsPropertyAndTz(String java) throws Exception {
        same(java, true, "", List.of("-Duser.timezone=Asia/Tokyo"), Map.of(), "zone");
        same(java, true, "", List.of(), Map.of("TZ", "Asia/Tokyo"), "zone");
        same(java, true, "", List.of(), Map.of("TZ", ":America/New_York"), "zone");
        same(java, true, "", List.of(), Map.of(), "zone");
        same(java, false, "", List.of(), Map.of("TZ", "JST-9"), "zone");
    }

    /** A zone only the C library knows is a new JVM's, unless it is the slot's own (its warm-up runs with it). */
    @Test
    void aPoolStartedWithAPosixTzServesRunsWithThatTz() throws Exception {
        try (Pool posix = Pool.start(1, Jdks.DEFAULT, "", Map.of("TZ", "JST-9"))) {
            pools.put("posix", posix);
            same("posix", Jdks.DEFAULT, true, "", List.of(), Map.of("TZ", "JST-9"), "zone");
            same("posix", Jdks.DEFAULT, false, "", List.of(), Map.of(), "zone");
        } finally {
            pools.remove("posix");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void localeFollowsTheRunsPropertiesAndItsCLibraryLocale(String java) throws Exception {
        same(java, true, "", List.of("-Duser.language=fr", "-Duser.country=FR"), Map.of(), "locale");
        same(java, true, "", List.of("-Duser.language=de", "-Duser.language.display=ja"), Map.of(), "locale");
        same(java, true, "", List.of(), Map.of(), "locale");
        same(java, false, "", List.of(), Map.of("LC_ALL", "POSIX"), "locale");
    }

    /** The command: the encoding makes it a new JVM's, which shows all four as asked. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anEncodingOtherThanTheSlotsGoesToANewJvm(String java) throws Exception {
        same(java, false, "", List.of("-Duser.timezone=Asia/Tokyo", "-Duser.language=fr", "-Duser.country=FR",
                "-Dfile.encoding=ISO-8859-1"), Map.of(), "encoding");
        same(java, false, "", List.of("-Dsun.jnu.encoding=ISO-8859-1"), Map.of(), "encoding");
        same(java, true, "", List.of("-Dfile.encoding=UTF-8"), Map.of(), "encoding");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void filesGetTheClientsUmask(String java) throws Exception {
        same(java, true, "umask 077", List.of(), Map.of(), "umask");
        same(java, true, "umask 002", List.of(), Map.of(), "umask");
        same(java, true, "", List.of(), Map.of(), "umask");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void softResourceLimitsAreTheRunsAndHardOnesOtherThanTheSlotsGoToANewJvm(String java) throws Exception {
        String[] limits = {"limits", "Max core file size", "Max open files", "Max file size", "Max stack size"};
        same(java, true, "ulimit -S -c 0 && ulimit -S -s 4096 && ulimit -S -n 512", List.of(), Map.of(), limits);
        same(java, true, "", List.of(), Map.of(), limits);
        same(java, false, "ulimit -H -c 1024", List.of(), Map.of(), limits);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theMainThreadGetsTheRunsStackSize(String java) throws Exception {
        same(java, true, "", List.of("-Xss64m"), Map.of(), "stack", "200000");
        same(java, true, "", List.of("-Xss1m"), Map.of(), "stack", "1000");
    }

    /** The JDK picks its IP stack once: a run that asks for another than the slots' goes to a new JVM. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void anIpStackOtherThanTheSlotsGoesToANewJvm(String java) throws Exception {
        same(java, false, "", List.of("-Djava.net.preferIPv4Stack=true"), Map.of(), "ipstack");
        same(java, true, "", List.of(), Map.of(), "ipstack");
    }

    /**
     * The JDK fixes System.lineSeparator() as it starts, and Arrays' choice of merge sort when it
     * first sorts objects (the slot already has): a run that asks for another than the slots' goes
     * to a new JVM (with the legacy sort, a comparator that breaks its contract sorts, where TimSort
     * throws), the slots' own stays.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aLineSeparatorOrSortOtherThanTheSlotsGoesToANewJvm(String java) throws Exception {
        same(java, false, "", List.of("-Dline.separator=\r\n"), Map.of(), "lines");
        same(java, true, "", List.of("-Dline.separator=\n"), Map.of(), "lines");
        same(java, false, "", List.of("-Djava.util.Arrays.useLegacyMergeSort=true"), Map.of(), "sort");
    }

    /** RuntimeMXBean's input arguments are the run's options, as a new JVM reports them, not the slot's. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theJvmsInputArgumentsAreTheRunsOptions(String java) throws Exception {
        same(java, true, "", List.of("-Xmx256m", "-Dprobe=1", "-Dflag", "-Xss2m", "--add-opens", "java.base/java.lang=ALL-UNNAMED"),
                Map.of(), "arguments");
        same(java, true, "", List.of(), Map.of(), "arguments");
    }

    /**
     * Runs the probe through the client and as a new JVM, each under {@code shell} (umask, ulimit)
     * with {@code env} added, and asserts the same output, and that the run was in a slot or not.
     */
    private void same(String java, boolean inSlot, String shell, List<String> options, Map<String, String> env,
                      String... probeArgs) throws Exception {
        same(java, java, inSlot, shell, options, env, probeArgs);
    }

    private void same(String poolName, String java, boolean inSlot, String shell, List<String> options,
                      Map<String, String> env, String... probeArgs) throws Exception {
        Pool pool = pools.get(poolName);
        Path dir = Files.createTempDirectory("startup");
        List<String> args = new ArrayList<>(options);
        args.addAll(List.of("-cp", Pool.PROGRAMS, PROBE));
        args.addAll(List.of(probeArgs));
        List<String> newJvm = new ArrayList<>(List.of(java));
        newJvm.addAll(args);
        Pool.Result stock = Pool.exec(underShell(shell, newJvm), env, dir, 60);
        assertEquals(0, stock.code(), stock.toString());
        Map<String, String> clientEnv = new HashMap<>(env);
        clientEnv.put("JVMREUSE_SOCKET", pool.socket.toString());
        clientEnv.put("JAVA_HOME", Path.of(java).getParent().getParent().toString()); // the fallback's java
        List<String> client = new ArrayList<>(List.of(Pool.CLIENT.toString(), "run", "-v"));
        client.addAll(args);
        Pool.Result run = Pool.exec(underShell(shell, client), clientEnv, dir, 120);
        String what = String.join(" ", probeArgs) + " under '" + shell + "' " + options + " " + env;
        assertEquals(0, run.code(), what + ": " + run);
        assertEquals(stock.out(), run.out(), what + ": " + run);
        assertEquals(inSlot, run.err().contains("running in slot 0"), what + ": " + run.err());
        // Admission before dispatch: the manager sends what a slot cannot give to a new JVM; no slot is asked.
        String slotLog = pool.slotLog(1);
        assertFalse(slotLog.contains(" did not start: "), what + ": a slot was asked and refused:\n" + slotLog);
        Files.delete(dir);
    }

    private static List<String> underShell(String shell, List<String> command) {
        if (shell.isEmpty()) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", shell + " && exec \"$0\" \"$@\""));
        wrapped.addAll(command);
        return wrapped;
    }
}
