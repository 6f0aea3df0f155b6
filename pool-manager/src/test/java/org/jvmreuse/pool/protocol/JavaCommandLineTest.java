package org.jvmreuse.pool.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A run's java command line, read once, as the java launcher reads it, for what a slot can take. */
class JavaCommandLineTest {
    private static JavaCommandLine parse(String... words) {
        return JavaCommandLine.parse(List.of(words));
    }

    @Test
    void readsWhatASlotTakesUpToTheMainClass() {
        JavaCommandLine command = parse("-server", "-Xmx2g", "-XX:+UseG1GC", "-cp", "a.jar", "-Dx=1", "-Dflag", "-Dx=2",
                "-Xss1m", "--class-path=b.jar", "-Xss2m", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED", "app.Main", "-cp", "arg");
        assertNull(command.unsupported());
        assertEquals("b.jar", command.classPath(), "the last class path counts");
        assertEquals(Map.of("x", "2", "flag", ""), command.properties());
        assertEquals("2m", command.stackSize());
        assertEquals(List.of("-server", "-Xmx2g", "-XX:+UseG1GC"), command.fixedOptions());
        assertEquals(List.of("java.base/java.lang"), command.addOpens());
        assertEquals(List.of("java.base/sun.nio.ch"), command.addExports());
        // as `java` with these options (the main class P printing RuntimeMXBean.getInputArguments) printed them
        assertEquals(List.of("-Xmx2g", "-XX:+UseG1GC", "-Dx=1", "-Dflag", "-Dx=2", "-Xss1m", "-Xss2m",
                "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED"),
                command.vmArguments());
        assertEquals("app.Main", command.mainClass());
        assertEquals(List.of("-cp", "arg"), command.args(), "what follows the main class is the program's");
        assertNull(parse("app.Main").classPath(), "no -cp: CLASSPATH or the working directory, as for java");
    }

    @Test
    void whatOnlyANewJvmCanTakeOrReportIsNamed() {
        assertEquals("option -ea is not supported by the pool", parse("-ea", "app.Main").unsupported());
        assertEquals("option -XX:+PrintFlagsFinal is not supported by the pool", parse("-XX:+PrintFlagsFinal", "M").unsupported());
        assertEquals("option @args.txt is not supported by the pool", parse("@args.txt", "M").unsupported());
        assertEquals("option -D is not supported by the pool", parse("-D", "M").unsupported());
        assertEquals("option -Xmx is not supported by the pool", parse("-Xmx", "M").unsupported());
        assertEquals("option --add-opens java.base/java.lang=java.sql names a target other than ALL-UNNAMED, which only a new"
                + " JVM can honour", parse("--add-opens", "java.base/java.lang=java.sql", "M").unsupported());
        for (String bad : List.of("java.lang=ALL-UNNAMED", "/java.lang=ALL-UNNAMED", "java.base/=ALL-UNNAMED",
                "java.base/java/lang=ALL-UNNAMED", "java.base/a,b=ALL-UNNAMED", "java.base/java.lang")) {
            assertEquals("option --add-exports " + bad + " is not MODULE/PACKAGE=TARGET; only a new JVM can report that",
                    parse("--add-exports", bad, "M").unsupported());
        }
        assertEquals("option --add-opens (no value) is not MODULE/PACKAGE=TARGET; only a new JVM can report that",
                parse("--add-opens").unsupported());
        assertEquals("option --add-opensx is not supported by the pool", parse("--add-opensx", "M").unsupported());
        assertEquals("option -cp has no class path; only a new JVM can report that", parse("-cp").unsupported());
        assertEquals("no main class given; only a new JVM can report that", parse("-cp", "a.jar").unsupported());
    }
}
