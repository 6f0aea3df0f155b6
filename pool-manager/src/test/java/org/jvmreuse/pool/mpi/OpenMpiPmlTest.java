package org.jvmreuse.pool.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenMpiPmlTest {
    private static final String LIB = "/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/";

    @Test
    void namesThePmlLeftInTheMaps() {
        assertEquals("ucx", OpenMpiPml.from(Stream.of(
                "7f1c2a000000-7f1c2a010000 r-xp 00000000 08:01 123 " + LIB + "mca_pml_ucx.so",
                "7f1c2a010000-7f1c2a020000 r--p 00010000 08:01 123 " + LIB + "mca_pml_ucx.so",
                "7f1c2b000000-7f1c2b010000 r-xp 00000000 08:01 124 " + LIB + "mca_btl_tcp.so",
                "7f1c2c000000-7f1c2c010000 r-xp 00000000 08:01 125 /lib/x86_64-linux-gnu/libucp.so.0.0.0")));
        assertEquals("ob1", OpenMpiPml.from(Stream.of("x r-xp 0 0:0 1 " + LIB + "mca_pml_ob1.so")));
    }

    @Test
    void noneUnderOtherMpisOrWithoutMaps(@TempDir Path dir) throws Exception {
        assertEquals("", OpenMpiPml.from(Stream.of("x r-xp 0 0:0 1 /usr/lib/x86_64-linux-gnu/libmpich.so.12")));
        assertEquals("", OpenMpiPml.of(dir.resolve("missing")));
        Path maps = Files.writeString(dir.resolve("maps"), "x r-xp 0 0:0 1 " + LIB + "mca_pml_cm.so\n");
        assertEquals("cm", OpenMpiPml.of(maps));
    }
}
