package org.jvmreuse.it.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28: no package of a module's main code depends on another that depends back on it,
 * directly or through others. The class-level references come from the JDK's {@code jdeps} over
 * the module's compiled classes; a cycle fails the build, naming the classes on each edge.
 */
class PackageCyclesTest {
    private static final Path REPO = Path.of(System.getProperty("jvmreuse.repo", "."));

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pool-manager", "hadoop-patch", "mpi-shuffle", "workloads"})
    void theModulesPackagesFormNoCycle(String module) {
        Path classes = REPO.resolve(module).resolve("target/classes");
        assertTrue(Files.isDirectory(classes), classes + " is not built");
        Map<String, Map<String, Set<String>>> edges = PackageEdges.of(classes);
        assertTrue(!edges.isEmpty(), "jdeps found no references between " + module + "'s packages");
        List<List<String>> cycles = new StronglyConnected(edges).cycles();
        StringBuilder why = new StringBuilder();
        for (List<String> cycle : cycles) {
            why.append("\n  cycle among ").append(cycle);
            for (String from : cycle) {
                for (String to : cycle) {
                    Set<String> pairs = edges.getOrDefault(from, Map.of()).get(to);
                    if (pairs != null) {
                        why.append("\n    ").append(from).append(" -> ").append(to).append(": ").append(pairs);
                    }
                }
            }
        }
        assertEquals(List.of(), cycles, module + "'s packages depend on each other:" + why);
    }

    /** Tarjan's strongly connected components; those of more than one package are the cycles. */
    private static final class StronglyConnected {
        private final Map<String, Map<String, Set<String>>> edges;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final List<List<String>> cycles = new ArrayList<>();

        StronglyConnected(Map<String, Map<String, Set<String>>> edges) {
            this.edges = edges;
        }

        List<List<String>> cycles() {
            for (String node : edges.keySet()) {
                if (!index.containsKey(node)) {
                    visit(node);
                }
            }
            return cycles;
        }

        private void visit(String node) {
            index.put(node, index.size());
            low.put(node, index.get(node));
            stack.push(node);
            for (String next : edges.getOrDefault(node, Map.of()).keySet()) {
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(node, Math.min(low.get(node), low.get(next)));
                } else if (stack.contains(next)) {
                    low.put(node, Math.min(low.get(node), index.get(next)));
                }
            }
            if (low.get(node).equals(index.get(node))) {
                List<String> component = new ArrayList<>();
                String member;
                do {
                    member = stack.pop();
                    component.add(member);
                } while (!member.equals(node));
                if (component.size() > 1) {
                    component.sort(null);
                    cycles.add(component);
                }
            }
        }
    }
}
