package org.jvmreuse.pool.config;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jvmreuse.pool.os.CurrentUser;

/**
 * Command-line options of a pool process; every rank of one mpirun gets the same ones.
 * {@code amSlots} is {@code --am-slots}, null when not given ({@link #amSlotCap});
 * {@code warmupParallel} is {@code --warmup-parallel} (0: no limit);
 * {@code rssMarginBytes}: how far a slot's resident memory may stay above its idle size plus its
 * heap after a run before the slot retires ({@code --rss-margin-mb}).
 */
public record PoolOptions(String socketTemplate, String logDirTemplate, int ranksPerPool, int spares,
                          long threadStopMillis, int warmupRuns, LibraryWarmup libraryWarmup, Service service,
                          Integer amSlots, int warmupParallel, long rssMarginBytes) {

    /**
     * A program each slot runs {@code runs} times after the built-in warm-up, with
     * {@code sharedClassPath} shared as a run would share it: the libraries users run with are
     * then loaded and compiled before the first real run (e.g. Hadoop, for its tasks).
     */
    public record LibraryWarmup(String mainClass, List<String> sharedClassPath, int runs) { }

    /**
     * A service each Pool Manager process starts (the MPI Shuffle Manager): its class, class path
     * and options, whose values may hold the same placeholders as {@code --socket}.
     */
    public record Service(String className, List<String> classPath, Map<String, String> options) {
        /** The options of one pool, placeholders filled in. */
        public Map<String, String> optionsFor(String host, int poolIndex) {
            Map<String, String> filled = new LinkedHashMap<>();
            options.forEach((k, v) -> filled.put(k, fill(v, host, poolIndex)));
            return filled;
        }
    }

    public static final String USAGE = String.join(System.lineSeparator(),
            "usage: mpirun ... java ... org.jvmreuse.pool.PoolMain [options]",
            "  --socket PATH            control socket; %h = host name, %i = pool index (from 0),",
            "                           %n = pool number (from 1)",
            "                           (default /tmp/jvmreuse-<uid>/pool.sock, or pool-%i.sock when",
            "                           several pools share a host)",
            "  --log-dir DIR            pool logs (default: <socket dir>/logs)",
            "  --ranks-per-pool K       K consecutive ranks form one pool (1 manager + K-1 slots and",
            "                           spares); default 0: one pool per host holding all its ranks",
            "  --spares N               the last N ranks of each pool are spares, which take the place",
            "                           of slots that retire or die (default 0)",
            "  --am-slots N             at most N slots of each pool run application masters (runs of",
            "                           kind am) at once; more wait, and tasks queued behind them go",
            "                           first (default: half the slots, rounded up, at most slots - 1;",
            "                           0: application masters always get a new JVM)",
            "  --thread-stop-ms N       how long a run's leftover threads get to stop (default 2000)",
            "  --rss-margin-mb N        a slot whose resident memory after a run stays more than N MiB",
            "                           above its idle size plus its heap retires (default 256)",
            "  --warmup-runs N          runs of the built-in warm-up program each slot makes before it",
            "                           serves (default 20; with --warmup-main 0, since its runs take",
            "                           the same run path; 0: none)",
            "  --warmup-main CLASS      then runs CLASS (with --warmup-cp shared, as runs share it)",
            "  --warmup-cp LIBS         the shared class path of those runs (':'-separated)",
            "  --warmup-main-runs N     how many times (default 10)",
            "  --warmup-parallel N      at most N JVMs of this user warm up at once on a host, the others",
            "                           wait their turn (default: a quarter of the host's CPUs, at least",
            "                           1; 0: no limit)",
            "  --service CLASS          a service each manager process starts (e.g. the MPI Shuffle",
            "                           Manager, org.jvmreuse.shuffle.server.ShuffleManager)",
            "  --service-cp CP          its class path (':'-separated; dir/* for the jars in dir)",
            "  --service-opt KEY=VALUE  an option of the service (repeatable; %h %i %n as in --socket)");

    public static PoolOptions parse(String[] args) {
        String socket = null;
        String logDir = null;
        int ranksPerPool = 0;
        int spares = 0;
        Integer amSlots = null;
        long threadStop = 2000;
        long rssMarginMb = 256;
        Integer warmupRuns = null;
        String warmupMain = null;
        String warmupCp = null;
        int warmupMainRuns = 10;
        int warmupParallel = Math.max(1, Runtime.getRuntime().availableProcessors() / 4);
        String service = null;
        String serviceCp = null;
        Map<String, String> serviceOptions = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--socket" -> socket = value(args, ++i, arg);
                case "--log-dir" -> logDir = value(args, ++i, arg);
                case "--ranks-per-pool" -> ranksPerPool = number(value(args, ++i, arg), arg, 0);
                case "--spares" -> spares = number(value(args, ++i, arg), arg, 0);
                case "--am-slots" -> amSlots = number(value(args, ++i, arg), arg, 0);
                case "--thread-stop-ms" -> threadStop = number(value(args, ++i, arg), arg, 1);
                case "--rss-margin-mb" -> rssMarginMb = number(value(args, ++i, arg), arg, 1);
                case "--warmup-runs" -> warmupRuns = number(value(args, ++i, arg), arg, 0);
                case "--warmup-main" -> warmupMain = value(args, ++i, arg);
                case "--warmup-cp" -> warmupCp = value(args, ++i, arg);
                case "--warmup-main-runs" -> warmupMainRuns = number(value(args, ++i, arg), arg, 0);
                case "--warmup-parallel" -> warmupParallel = number(value(args, ++i, arg), arg, 0);
                case "--service" -> service = value(args, ++i, arg);
                case "--service-cp" -> serviceCp = value(args, ++i, arg);
                case "--service-opt" -> {
                    String option = value(args, ++i, arg);
                    int eq = option.indexOf('=');
                    if (eq < 1) {
                        throw new IllegalArgumentException("--service-opt needs KEY=VALUE, got '" + option + "'");
                    }
                    serviceOptions.put(option.substring(0, eq), option.substring(eq + 1));
                }
                default -> throw new IllegalArgumentException("unknown option '" + arg + "'\n" + USAGE);
            }
        }
        if (ranksPerPool == 1) {
            throw new IllegalArgumentException("--ranks-per-pool must be 0 or at least 2 (a manager and a slot)");
        }
        if (ranksPerPool > 0 && ranksPerPool < 2 + spares) {
            throw new IllegalArgumentException("--ranks-per-pool " + ranksPerPool + " leaves no slot beside the manager and "
                    + spares + " spares: it must be at least " + (2 + spares));
        }
        if ((warmupMain == null) != (warmupCp == null)) {
            throw new IllegalArgumentException("--warmup-main and --warmup-cp go together");
        }
        LibraryWarmup library = warmupMain == null ? null
                : new LibraryWarmup(warmupMain, List.of(warmupCp.split(":")), warmupMainRuns);
        if (service == null && (serviceCp != null || !serviceOptions.isEmpty())) {
            throw new IllegalArgumentException("--service-cp and --service-opt need --service");
        }
        Service serviceSpec = service == null ? null
                : new Service(service, serviceCp == null ? List.of() : List.of(serviceCp.split(":")),
                        Map.copyOf(serviceOptions));
        if (warmupRuns == null) {
            // The library's own runs warm the slot's run path as well as the built-in program would.
            warmupRuns = library == null ? 20 : 0;
        }
        return new PoolOptions(socket, logDir, ranksPerPool, spares, threadStop, warmupRuns, library, serviceSpec,
                amSlots, warmupParallel, rssMarginMb << 20);
    }

    /**
     * How many of a pool's {@code slots} application masters may hold at once: {@code --am-slots},
     * or half of them rounded up but always one fewer than the slots, so that one is left to
     * tasks (an application master waits for its job's tasks: docs/design.md, "Application
     * masters and tasks share slots"); a one-slot pool takes no application master by default.
     */
    public int amSlotCap(int slots) {
        if (amSlots == null) {
            return Math.min((slots + 1) / 2, slots - 1);
        }
        if (amSlots > slots) {
            throw new IllegalArgumentException("--am-slots " + amSlots + " is more than the pool's " + slots + " slots");
        }
        return amSlots;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].isEmpty()) {
            throw new IllegalArgumentException("option " + option + " needs a value");
        }
        return args[i];
    }

    private static int number(String text, String option, int min) {
        try {
            int n = Integer.parseInt(text);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("option " + option + " needs a whole number >= " + min + ", got '" + text + "'");
    }

    /** The control socket of one pool, with the template's placeholders filled in. */
    public Path socketPath(String host, int poolIndex, boolean sharedHost) {
        String template = socketTemplate;
        if (template == null) {
            template = "/tmp/jvmreuse-" + CurrentUser.uid() + (sharedHost ? "/pool-%i.sock" : "/pool.sock");
        } else if (sharedHost && !template.contains("%i") && !template.contains("%n")) {
            throw new IllegalArgumentException("several pools run on host " + host
                    + " and would share the socket " + template + "; put %i or %n in --socket");
        }
        return Path.of(fill(template, host, poolIndex));
    }

    static String fill(String template, String host, int poolIndex) {
        return template.replace("%h", host).replace("%i", Integer.toString(poolIndex))
                .replace("%n", Integer.toString(poolIndex + 1));
    }

    /** The log directory; the default one is in the socket's directory, which is checked (and made) first. */
    public Path logDir(Path socket, String host, int poolIndex) {
        if (logDirTemplate == null) {
            try {
                PrivateDirectory.prepare(socket.getParent());
            } catch (IOException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            return socket.getParent().resolve("logs");
        }
        return Path.of(fill(logDirTemplate, host, poolIndex));
    }
}
