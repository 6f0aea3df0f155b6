package org.jvmreuse.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Run loaders are collected: 150 class-heavy runs in one slot leave no growing residue, measured
 * through JMX inside the slot. Metaspace also holds the JIT's profiling data of JDK methods,
 * which grows with C2 tiered profiling over the first few hundred runs until every hot method
 * has it (bounded: about 1 MB here, flat after about 400 runs). So Metaspace itself is checked
 * in a pool compiling with C1 only, where profiling data is not collected and the number shows
 * class metadata alone; with the default JIT the class metadata space (every loaded class's
 * structure, where a leaked loader of 800 classes would add about 0.6 MB per run) is checked.
 * 150 runs (500, then 300, until 2026-11-30, cut for CI time) show a kept loader many times over
 * the bound: 140 kept loaders of 800 classes are about 28 times the 10% of the slot's classes.
 */
class ClassReclamationTest {
    private static final int RUNS = 150;
    private static final String CLASSES_PER_RUN = "800";
    private static final int REGISTERING_RUNS = Integer.getInteger("jvmreuse.registering.runs", 300);
    private static final int REGISTERING_BASELINE_RUN = 100;

    @Test
    void metaspaceAndLoadedClassesStayFlatOver150Runs() throws Exception {
        assertFlat("-XX:TieredStopAtLevel=1", List.of("classes", "metaspace"));
    }

    @Test
    void classMetadataAndLoadedClassesStayFlatOver150RunsWithTheDefaultJit() throws Exception {
        assertFlat("", List.of("classes", "classspace"));
    }

    /**
     * Runs that each register objects of their own classes in every JDK-wide registry the slot
     * puts back (JdkStateProbe register): a registry that kept them would keep every run's
     * loader, and the loaded classes and Metaspace would grow with each run. Metaspace gets a
     * wider bound for the JIT's profiling data (see above), far below what kept loaders add.
     */
    @Test
    void runsRegisteringInJdkRegistriesLeaveLoadedClassesAndMetaspaceFlat() throws Exception {
        try (Pool pool = Pool.start(1)) {
            Map<String, Long> early = null;
            long start = System.nanoTime();
            for (int run = 1; run <= REGISTERING_RUNS; run++) {
                Pool.Result result = pool.program("JdkStateProbe", "register");
                assertEquals(0, result.code(), "run " + run + ": " + result);
                assertTrue(result.err().contains("running in slot 0"), "run " + run + " went elsewhere: " + result.err());
                if (run == REGISTERING_BASELINE_RUN) {
                    early = numbers(pool.program("JdkStateProbe", "memory").out());
                }
            }
            Map<String, Long> last = numbers(pool.program("JdkStateProbe", "memory").out());
            System.out.printf("%d registering runs: %.1f ms each; after run %d %s, after run %d %s%n", REGISTERING_RUNS,
                    (System.nanoTime() - start) / 1e6 / REGISTERING_RUNS, REGISTERING_BASELINE_RUN, early, REGISTERING_RUNS, last);
            for (Map.Entry<String, Double> bound : Map.of("classes", 1.05, "metaspace", 1.25).entrySet()) {
                String key = bound.getKey();
                double ratio = (double) last.get(key) / early.get(key);
                assertTrue(ratio <= bound.getValue(), key + " grew from " + early.get(key) + " after run "
                        + REGISTERING_BASELINE_RUN + " to " + last.get(key) + " after run " + REGISTERING_RUNS);
            }
        }
    }

    private static void assertFlat(String jvmOptions, List<String> measures) throws Exception {
        String jar = System.getProperty("jvmreuse.classheavy.jar");
        assertTrue(jar != null && new java.io.File(jar).isFile(), "class-heavy jar: " + jar);
        try (Pool pool = Pool.start(1, Jdks.DEFAULT, jvmOptions)) {
            Map<String, Long> atTen = null;
            Map<String, Long> last = null;
            for (int run = 1; run <= RUNS; run++) {
                Pool.Result result = pool.run("-cp", Pool.PROGRAMS + ":" + jar, "org.jvmreuse.it.programs.ClassHeavy",
                        jar, CLASSES_PER_RUN);
                assertEquals(0, result.code(), "run " + run + ": " + result);
                assertTrue(result.err().contains("running in slot 0"), "run " + run + " fell back: " + result.err());
                last = numbers(result.out());
                assertTrue(last.get("loaded") >= 500, "the program loaded too few classes: " + result.out());
                if (run == 10) {
                    atTen = last;
                }
            }
            for (String key : measures) {
                double ratio = (double) last.get(key) / atTen.get(key);
                assertTrue(ratio <= 1.10, key + " grew from " + atTen.get(key) + " after run 10 to " + last.get(key)
                        + " after run " + RUNS + " (ratio " + ratio + ")");
            }
        }
    }

    private static Map<String, Long> numbers(String out) {
        Map<String, Long> values = new HashMap<>();
        for (String line : out.split("\n")) {
            String[] kv = line.split("=");
            values.put(kv[0], Long.parseLong(kv[1]));
        }
        return values;
    }
}
