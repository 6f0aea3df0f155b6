package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.jvmreuse.pool.protocol.RunKind;
import org.jvmreuse.pool.protocol.RunSpec;
import org.jvmreuse.pool.protocol.StartupInputs;
import org.jvmreuse.pool.protocol.StreamPath;

/**
 * A run's --add-opens/--add-exports against this JVM, which the tests' argLine starts as the pool
 * starts its JVMs (pool-manager/pom.xml): java.base/java.lang and jdk.internal.misc opened to
 * ALL-UNNAMED, java.util.zip and sun.nio.ch not.
 */
class ModuleAccessTest {
    /** A fresh loader's unnamed module, as a run's loader has. */
    private final Module runModule = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader()).getUnnamedModule();

    private static RunSpec spec(List<String> opens, List<String> exports) {
        StreamPath devNull = StreamPath.unchecked("/dev/null");
        return new RunSpec("M", List.of(), List.of(), List.of(), Map.of(), Map.of(), "/", devNull, devNull, devNull,
                RunKind.TASK, opens, exports, StartupInputs.SLOT);
    }

    @Test
    void whatThePoolOpensOrExportsToAllUnnamedIsMet() {
        assertNull(ModuleAccess.unmet(spec(List.of(), List.of()), runModule));
        assertNull(ModuleAccess.unmet(spec(List.of("java.base/java.lang", "java.base/jdk.internal.misc"),
                List.of("java.base/java.util", "java.base/jdk.internal.misc")), runModule),
                "opened packages are exported too, and java.util is exported to everyone");
    }

    @Test
    void whatItDoesNotIsNamedWithTheOptionThatWouldGiveIt() {
        assertEquals("the pool's JVMs do not open java.base/java.util.zip to ALL-UNNAMED (start the pool with that"
                + " --add-opens)", ModuleAccess.unmet(spec(List.of("java.base/java.lang", "java.base/java.util.zip"),
                List.of()), runModule));
        assertEquals("the pool's JVMs do not export java.base/sun.nio.ch to ALL-UNNAMED (start the pool with that"
                + " --add-exports)", ModuleAccess.unmet(spec(List.of(), List.of("java.base/sun.nio.ch")), runModule));
        assertEquals("the pool's JVMs do not open java.base/java.util to ALL-UNNAMED (start the pool with that"
                + " --add-opens)", ModuleAccess.unmet(spec(List.of("java.base/java.util"), List.of()), runModule),
                "exported is not open");
    }

    @Test
    void anUnknownModuleOrPackageIsAReasonNotACrash() {
        assertEquals("the pool's JVMs have no module no.such.module (--add-opens no.such.module/x=ALL-UNNAMED)",
                ModuleAccess.unmet(spec(List.of("no.such.module/x"), List.of()), runModule));
        assertEquals("module java.base has no package java.nosuch in the pool's JVMs (--add-exports"
                + " java.base/java.nosuch=ALL-UNNAMED)", ModuleAccess.unmet(spec(List.of(), List.of("java.base/java.nosuch")),
                runModule));
    }
}
