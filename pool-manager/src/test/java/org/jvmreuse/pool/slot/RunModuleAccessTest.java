package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
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
 * A run's --add-opens/--add-exports given for the run and taken back after it, in this JVM
 * (whose argLine opens java.lang and a few more to ALL-UNNAMED, as the slot's agent opens them
 * to the pool's code; java.util.zip, java.time.zone and sun.nio.ch are neither open nor, for
 * sun.nio.ch, exported to unnamed modules).
 */
class RunModuleAccessTest {
    private static final Module JAVA_BASE = Object.class.getModule();

    /** A fresh loader's unnamed module, as a later run's loader has. */
    private static Module unnamed() {
        return new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader()).getUnnamedModule();
    }

    private static RunSpec spec(List<String> opens, List<String> exports) {
        StreamPath devNull = StreamPath.unchecked("/dev/null");
        return new RunSpec("M", List.of(), List.of(), List.of(), Map.of(), Map.of(), "/", devNull, devNull, devNull,
                RunKind.TASK, opens, exports, StartupInputs.SLOT);
    }

    @Test
    void aRunGetsWhatItAsksForAndTheNextRunDoesNot() {
        RunModuleAccess access = new RunModuleAccess();
        assertFalse(JAVA_BASE.isOpen("java.util.zip", unnamed()));
        assertNull(access.grant(spec(List.of("java.base/java.util.zip"), List.of())));
        assertTrue(JAVA_BASE.isOpen("java.util.zip", unnamed()), "opened to every unnamed module, as --add-opens does");
        assertEquals(List.of(), access.takeBack(List.of()));
        assertFalse(JAVA_BASE.isOpen("java.util.zip", unnamed()), "taken back after the run");
        assertTrue(JAVA_BASE.isExported("java.util.zip", unnamed()), "still exported, as it always is");
    }

    @Test
    void whatARunOpensByItselfToASharedLoaderIsTakenBackToo() throws Exception {
        RunModuleAccess access = new RunModuleAccess();
        Module shared = unnamed();
        Method addOpens = Module.class.getDeclaredMethod("implAddOpens", String.class, Module.class);
        addOpens.setAccessible(true); // a run given java.lang can do this
        addOpens.invoke(JAVA_BASE, "java.time.zone", shared);
        assertTrue(JAVA_BASE.isOpen("java.time.zone", shared));
        assertEquals(List.of(), access.takeBack(List.of(shared)));
        assertFalse(JAVA_BASE.isOpen("java.time.zone", shared));
    }

    @Test
    void exportingAnInternalPackageCannotBeTakenBackInsideTheVm() {
        RunModuleAccess access = new RunModuleAccess();
        assertNull(access.grant(spec(List.of(), List.of("java.base/sun.nio.ch"))));
        assertTrue(JAVA_BASE.isExported("sun.nio.ch", unnamed()));
        assertEquals(List.of("java.base/sun.nio.ch (exported to unnamed modules inside the VM)"),
                access.takeBack(List.of()));
        assertFalse(JAVA_BASE.isExported("sun.nio.ch", unnamed()), "reflection no longer sees it");
    }

    @Test
    void anUnknownModuleOrPackageIsAReasonNotACrash() {
        RunModuleAccess access = new RunModuleAccess();
        assertEquals("the pool's JVMs have no module no.such.module (--add-opens no.such.module/x=ALL-UNNAMED)",
                access.grant(spec(List.of("no.such.module/x"), List.of())));
        assertEquals("module java.base has no package java.nosuch in the pool's JVMs (--add-exports"
                + " java.base/java.nosuch=ALL-UNNAMED)", access.grant(spec(List.of(), List.of("java.base/java.nosuch"))));
        assertEquals(List.of(), access.takeBack(List.of()));
    }
}
