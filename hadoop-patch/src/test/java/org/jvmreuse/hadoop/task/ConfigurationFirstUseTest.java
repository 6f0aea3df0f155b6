package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop.task.job.ConfigurationFirstUse;

/**
 * YARN's and HDFS's configurations register default resources and deprecations when a JVM first
 * uses them; the slot initialised both at its start. Each run in the slot sees them exactly when
 * a new JVM would: from its own first use on, not before, and not from an earlier run's.
 */
class ConfigurationFirstUseTest {
    @Test
    void eachRunSeesYarnsAndHdfssRegistrationsFromItsFirstUseOnAsANewJvm() throws Exception {
        String both = HadoopRuns.run(ConfigurationFirstUse.class, "yarn", "dfs").stdout();
        assertEquals(inNewJvm("yarn", "dfs"), both);
        assertTrue(both.contains("start.hdfsDeprecation=false") && both.contains("dfs.hdfsDeprecation=true"), both);
        assertEquals(inNewJvm(), HadoopRuns.run(ConfigurationFirstUse.class).stdout(), "an earlier run's first use");
        assertEquals(inNewJvm("dfs", "yarn"), HadoopRuns.run(ConfigurationFirstUse.class, "dfs", "yarn").stdout());
    }

    /** What the program prints in a JVM of its own, on the slot's Hadoop. */
    private static String inNewJvm(String... uses) throws Exception {
        String classPath = System.getProperty("hadoop.installation") + File.pathSeparator
                + Path.of(ConfigurationFirstUse.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath, ConfigurationFirstUse.class.getName()));
        command.addAll(List.of(uses));
        Process java = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(java.waitFor(60, TimeUnit.SECONDS) && java.exitValue() == 0, "java " + String.join(" ", command) + ": " + out);
        return out;
    }
}
