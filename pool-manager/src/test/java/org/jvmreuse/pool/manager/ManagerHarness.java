package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.config.PoolOptions;
import org.jvmreuse.pool.config.PoolTopology;
import org.jvmreuse.pool.mpi.Doorbells;
import org.jvmreuse.pool.mpi.InProcessMpi;
import org.jvmreuse.pool.mpi.MpiTransport;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.service.MpiServicePort;

/**
 * A real {@link PoolManager} on rank 0 of an in-process MPI world, on its own thread, with its
 * control socket in a fresh private directory. Ranks 1..S are its {@link ScriptedSlot}s, ready
 * (doorbell connected, HELLO sent) when {@link #start} returns; then come its spares (doorbell
 * connected, waiting for a PROMOTE), and further ranks are outsiders, on another host and in no
 * pool of this manager. The pool log goes to a file the test can read.
 * {@link #close} stops everything and checks that no thread of the pool is left.
 */
final class ManagerHarness implements AutoCloseable {
    static final int MANAGER_RANK = 0;
    private static final Set<String> POOL_THREAD_NAMES = Set.of("control-accept", "control-client", "control-deadline", "manager-timer");

    final List<InProcessMpi> world;
    final MpiServicePort port;
    final PoolManager manager;
    private final Path dir;
    private final Path socket;
    private final Path log;
    private final Doorbells doorbells = new Doorbells();
    private final MpiTransport transport;
    private final Thread thread;
    private final List<ScriptedSlot> slots = new ArrayList<>();
    private final List<ScriptedSlot> spares = new ArrayList<>();
    private final List<ScriptedSlot> outsiders = new ArrayList<>();
    private final List<ControlClient> clients = Collections.synchronizedList(new ArrayList<>());
    private volatile Throwable failure;

    private ManagerHarness(int slotCount, int outsiderCount, int spareCount, int amSlots) throws IOException {
        dir = Files.createTempDirectory("jvmreuse-manager-test");
        socket = dir.resolve("control/pool.sock"); // ControlServer creates control/ with mode 700
        PoolLog.open(dir, "pool");
        log = dir.resolve("pool.log");
        List<String> hosts = new ArrayList<>(Collections.nCopies(1 + slotCount + spareCount, "node0"));
        hosts.addAll(Collections.nCopies(outsiderCount, "node1"));
        world = InProcessMpi.world(hosts);
        transport = new MpiTransport(world.get(MANAGER_RANK), doorbells);
        port = new MpiServicePort(transport, MANAGER_RANK); // as PoolMain does on every rank
        List<Integer> slotRanks = IntStream.rangeClosed(1, slotCount).boxed().toList();
        List<Integer> spareRanks = IntStream.rangeClosed(slotCount + 1, slotCount + spareCount).boxed().toList();
        manager = new PoolManager(new PoolTopology(0, "node0", MANAGER_RANK, slotRanks, false, spareRanks), socket,
                transport, doorbells, amSlots);
        thread = new Thread(() -> {
            try {
                manager.run();
            } catch (Throwable e) {
                failure = e;
            }
        }, "test-pool-manager");
        thread.setDaemon(true);
        thread.start();
        for (int r = 1; r < world.size(); r++) {
            ScriptedSlot slot = new ScriptedSlot(world.get(r), MANAGER_RANK);
            (r <= slotCount ? slots : r <= slotCount + spareCount ? spares : outsiders).add(slot);
            if (r <= slotCount + spareCount) {
                doorbells.expect(r, slot.doorbellKey);
            }
        }
    }

    /** A manager with {@code slotCount} ready slots and {@code outsiderCount} ranks outside its pool. */
    static ManagerHarness start(int slotCount, int outsiderCount) throws IOException {
        return start(slotCount, outsiderCount, 0);
    }

    /** ... and {@code spareCount} spares, their doorbells connected; application masters get the default cap. */
    static ManagerHarness start(int slotCount, int outsiderCount, int spareCount) throws IOException {
        return start(slotCount, outsiderCount, spareCount, PoolOptions.parse(new String[0]).amSlotCap(slotCount));
    }

    /** A manager with {@code slotCount} ready slots, at most {@code amSlots} of them for application masters. */
    static ManagerHarness withAmSlots(int slotCount, int amSlots) throws IOException {
        return start(slotCount, 0, 0, amSlots);
    }

    private static ManagerHarness start(int slotCount, int outsiderCount, int spareCount, int amSlots) throws IOException {
        return start(slotCount, outsiderCount, spareCount, amSlots, slotCount);
    }

    /** A manager with {@code slotCount} slots of which only the first {@code ready} said HELLO: the others still warm up. */
    static ManagerHarness warmingUp(int slotCount, int ready) throws IOException {
        return start(slotCount, 0, 0, PoolOptions.parse(new String[0]).amSlotCap(slotCount), ready);
    }

    private static ManagerHarness start(int slotCount, int outsiderCount, int spareCount, int amSlots, int ready)
            throws IOException {
        ManagerHarness harness = new ManagerHarness(slotCount, outsiderCount, spareCount, amSlots);
        try {
            // The socket file appears at bind(2), a moment before the manager listens on it.
            Await.until("the manager answers on its control socket", () -> harness.answers() || !harness.thread.isAlive());
            harness.assertManagerHealthy();
            for (ScriptedSlot slot : harness.slots) {
                slot.connectDoorbell(harness.socket);
                if (harness.slots.indexOf(slot) < ready) {
                    slot.hello();
                }
            }
            for (ScriptedSlot spare : harness.spares) {
                spare.connectDoorbell(harness.socket);
            }
            harness.awaitStatus("the ready slots are free", "slots: " + slotCount + " (free " + ready + ",");
            return harness;
        } catch (IOException | RuntimeException | Error e) {
            harness.close();
            throw e;
        }
    }

    static ManagerHarness start(int slotCount) throws IOException {
        return start(slotCount, 0);
    }

    private boolean answers() {
        if (!Files.exists(socket)) {
            return false;
        }
        try {
            status();
            return true;
        } catch (UncheckedIOException refused) {
            return false;
        }
    }

    Path socket() {
        return socket;
    }

    /** The scripted slot with index {@code index} (rank index + 1). */
    ScriptedSlot slot(int index) {
        return slots.get(index);
    }

    /** The scripted spare with index {@code index} (rank slot count + index + 1). */
    ScriptedSlot spare(int index) {
        return spares.get(index);
    }

    ScriptedSlot outsider(int index) {
        return outsiders.get(index);
    }

    /** The manager learns {@code slot}'s key as PoolMain teaches it a slot of another pool on its host. */
    void expectNeighbour(ScriptedSlot slot) {
        doorbells.expect(slot.rank(), slot.doorbellKey);
    }

    /** Whether the manager has a doorbell to {@code rank}. */
    boolean rings(int rank) {
        return doorbells.has(rank);
    }

    /** Sends {@code request} on a new control connection; closed by {@link #close}. */
    ControlClient request(Frame request) {
        try {
            ControlClient client = ControlClient.send(socket, request);
            clients.add(client);
            return client;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ControlClient run(String main, long waitMillis) {
        return request(ControlClient.runRequest(main, waitMillis));
    }

    /** A run of kind {@code am}: an application master. */
    ControlClient runAm(String main, long waitMillis) {
        return request(ControlClient.runRequest(main, waitMillis).add("kind", "am"));
    }

    /** The manager's {@code status} lines. */
    List<String> status() {
        try (ControlClient client = ControlClient.send(socket, new Frame("status"))) {
            return client.expect("status").getAll("line");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The status line of slot {@code index}. */
    String slotStatus(int index) {
        return status().stream().filter(l -> l.startsWith("slot " + index + ":")).findFirst().orElseThrow();
    }

    /** Waits until some status line contains {@code text}. */
    void awaitStatus(String what, String text) {
        try {
            Await.until(what + " (status shows '" + text + "')",
                    () -> status().stream().anyMatch(line -> line.contains(text)));
        } catch (AssertionError timedOut) {
            throw new AssertionError(timedOut.getMessage() + "\nstatus: " + status() + "\npool log:\n" + log()
                    + "\nthreads:\n" + threads(), timedOut);
        }
    }

    /** The stacks of the manager's and the slots' threads, for a failure's message. */
    private static String threads() {
        StringBuilder out = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            String name = thread.getName();
            if (name.startsWith("mpi-comm") || name.startsWith("test-") || POOL_THREAD_NAMES.contains(name)) {
                out.append(name).append(' ').append(thread.getState()).append('\n');
                for (StackTraceElement frame : stack) {
                    out.append("    at ").append(frame).append('\n');
                }
            }
        });
        return out.toString();
    }

    /** What the pool has logged so far. */
    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean managerRunning() {
        return thread.isAlive();
    }

    /** Waits for the manager's run() to return, and checks that it returned normally. */
    void awaitManagerEnd() throws InterruptedException {
        thread.join(Await.PATIENCE.toMillis());
        assertFalse(thread.isAlive(), "the manager's run() has not returned");
        assertManagerHealthy();
    }

    void assertManagerHealthy() {
        if (failure != null) {
            fail("the manager failed", failure);
        }
    }

    @Override
    public void close() {
        List<Throwable> problems = new ArrayList<>();
        Runnable[] steps = {
            () -> clients.forEach(c -> quietly(c::close, problems)),
            () -> Stream.of(slots, spares, outsiders).flatMap(List::stream).forEach(s -> quietly(s::close, problems)),
            () -> quietly(() -> {
                transport.stop();
                thread.join(Await.PATIENCE.toMillis());
                assertFalse(thread.isAlive(), "the manager did not stop");
            }, problems),
            () -> quietly(doorbells::close, problems),
            () -> quietly(() -> Await.until("the manager's threads have ended", () -> Thread.getAllStackTraces()
                    .keySet().stream().noneMatch(t -> POOL_THREAD_NAMES.contains(t.getName()))), problems),
            () -> quietly(this::deleteDir, problems),
        };
        for (Runnable step : steps) {
            step.run();
        }
        if (!problems.isEmpty()) {
            AssertionError error = new AssertionError("stopping the harness failed");
            problems.forEach(error::addSuppressed);
            throw error;
        }
        assertTrue(failure == null, () -> "the manager failed: " + failure);
    }

    private interface Step {
        void run() throws Exception;
    }

    private static void quietly(Step step, List<Throwable> problems) {
        try {
            step.run();
        } catch (Exception | AssertionError e) {
            problems.add(e);
        }
    }

    private void deleteDir() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
