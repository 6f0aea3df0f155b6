package org.jvmreuse.pool.slot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LibraryPathDefaultTest {
    private static final String BUILT_IN = "/usr/java/packages/lib:/usr/lib64:/lib64:/lib:/usr/lib";

    @Test
    void aRunGetsItsOwnLdLibraryPathBeforeTheJdksDirectories() {
        LibraryPathDefault fromSlot = new LibraryPathDefault("/opt/slot:" + BUILT_IN, "/opt/slot");
        assertEquals("/task/dir:/opt/x:" + BUILT_IN, fromSlot.forRun("/task/dir:/opt/x"));
        assertEquals(BUILT_IN, fromSlot.forRun(null));
        assertEquals(BUILT_IN, fromSlot.forRun(""));
    }

    @Test
    void aSlotWithoutLdLibraryPathHasOnlyTheBuiltInDirectories() {
        assertEquals("/task:" + BUILT_IN, new LibraryPathDefault(BUILT_IN, null).forRun("/task"));
    }

    @Test
    void aSlotGivenItsOwnLibraryPathKeepsIt() {
        LibraryPathDefault explicit = new LibraryPathDefault("/opt/mpi/lib", "/opt/slot");
        assertEquals("/task:/opt/mpi/lib", explicit.forRun("/task"));
        assertEquals("/opt/mpi/lib", explicit.forRun(null));
    }
}
