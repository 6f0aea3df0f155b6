package org.jvmreuse.it.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28: each module's code sits in packages named for the process it runs in, and code of
 * one process does not reach into another's: the pool's manager and its slots (one JVM kind, two
 * roles, talking over MPI only), hadoop-patch's NodeManager side and its task side, the MPI
 * shuffle's Shuffle Manager and its reducers. What they share lives in packages below both
 * (protocol, admission, the boot jar's contracts).
 */
class ProcessBoundariesTest {
    private static final Path REPO = Path.of(System.getProperty("jvmreuse.repo", "."));

    /** Module, the packages of one process, those of another, and the one class allowed to use both. */
    static Stream<Arguments> boundaries() {
        return Stream.of(
                Arguments.of("pool-manager", List.of("org.jvmreuse.pool.manager"),
                        List.of("org.jvmreuse.pool.slot", "org.jvmreuse.pool.slot.globals"), ""),
                Arguments.of("hadoop-patch", List.of("org.jvmreuse.hadoop.executor"),
                        List.of("org.jvmreuse.hadoop.task", "org.jvmreuse.hadoop.warmup", "org.jvmreuse.hadoop.counters"), ""),
                // Hadoop 3.x's executor (NodeManager) and its tasks' counters engine.
                Arguments.of("hadoop3-patch", List.of("org.jvmreuse.hadoop3.executor"), List.of("org.jvmreuse.hadoop3.counters"), ""),
                // The warm-up's loopback shuffle runs a Shuffle Manager and its reducer in one JVM.
                Arguments.of("mpi-shuffle", List.of("org.jvmreuse.shuffle.server"), List.of("org.jvmreuse.shuffle.reduce"),
                        "LoopbackShuffle"));
    }

    @ParameterizedTest(name = "{0}: {1} | {2}")
    @MethodSource("boundaries")
    void codeOfOneProcessDoesNotReachIntoAnothers(String module, List<String> one, List<String> other, String bothEnds) {
        Path classes = REPO.resolve(module).resolve("target/classes");
        assertTrue(Files.isDirectory(classes), classes + " is not built");
        Map<String, Map<String, Set<String>>> edges = PackageEdges.of(classes);
        for (String pkg : Stream.concat(one.stream(), other.stream()).toList()) {
            assertTrue(Files.isDirectory(classes.resolve(pkg.replace('.', '/'))), module + " has no package " + pkg + " (renamed?)");
        }
        List<String> crossings = new ArrayList<>();
        crossings.addAll(crossings(edges, one, other, bothEnds));
        crossings.addAll(crossings(edges, other, one, bothEnds));
        assertEquals(List.of(), crossings, module + ": code of one process reaches into another's");
    }

    /**
     * What hadoop-patch, hadoop3-patch and mpi-shuffle may use of the pool's code: only what it makes to be
     * shared, the boot jar's contracts and its admission rules (which the NodeManager's executor
     * applies before it hands a container to the pool); never the manager's or a slot's code.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hadoop-patch", "hadoop3-patch", "mpi-shuffle"})
    void modulesUseOnlyWhatThePoolShares(String module) {
        Path classes = REPO.resolve(module).resolve("target/classes");
        assertTrue(Files.isDirectory(classes), classes + " is not built");
        List<String> reached = new ArrayList<>();
        PackageEdges.of(classes).forEach((from, targets) -> targets.forEach((to, pairs) -> {
            if (to.startsWith("org.jvmreuse.pool") && !to.equals("org.jvmreuse.pool.admission")) {
                reached.add(from + " -> " + to + ": " + pairs);
            }
        }));
        assertEquals(List.of(), reached, module + " uses code of the pool that it does not share");
    }

    private static List<String> crossings(Map<String, Map<String, Set<String>>> edges, List<String> from, List<String> to,
                                          String bothEnds) {
        List<String> found = new ArrayList<>();
        for (String source : from) {
            for (String target : to) {
                for (String pair : edges.getOrDefault(source, Map.of()).getOrDefault(target, Set.of())) {
                    if (bothEnds.isEmpty() || !pair.startsWith(bothEnds + " -> ")) {
                        found.add(source + " -> " + target + ": " + pair);
                    }
                }
            }
        }
        return found;
    }
}
