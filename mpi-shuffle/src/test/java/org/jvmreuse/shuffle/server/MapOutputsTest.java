package org.jvmreuse.shuffle.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MapOutputsTest {
    @TempDir
    Path root;

    private MapOutputs outputs(MapOutputFiles files) {
        return new MapOutputs(List.of(root.resolve("other-disk"), files.localDir), MapOutputFiles.USER, 1 << 20);
    }

    @Test
    void findsEachPartitionThroughHadoopsIndex() throws IOException {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 1, 100, 0, 5000);
        MapOutputs outputs = outputs(files);
        for (int r = 0; r < 3; r++) {
            MapOutputs.Segment segment = outputs.segment(MapOutputFiles.USER, MapOutputFiles.JOB, MapOutputFiles.MAP, r);
            assertEquals(files.partitions[r].length, segment.length());
            assertEquals(2L * files.partitions[r].length, segment.rawLength());
            if (segment.length() == 0) {
                assertThrows(MapOutputException.class, () -> outputs.map(segment, 0, 0));
                continue;
            }
            ByteBuffer mapped = outputs.map(segment, 0, (int) segment.length());
            assertTrue(mapped.isDirect());
            assertEquals(0, mapped.position());
            byte[] got = new byte[(int) segment.length()];
            mapped.get(0, got);
            assertArrayEquals(files.partitions[r], got);
            Mappings.unmap(mapped);
        }
        MapOutputs.Segment last = outputs.segment(MapOutputFiles.USER, MapOutputFiles.JOB, MapOutputFiles.MAP, 2);
        ByteBuffer middle = outputs.map(last, 2000, 1000);
        byte[] got = new byte[1000];
        middle.get(0, got);
        assertArrayEquals(Arrays.copyOfRange(files.partitions[2], 2000, 3000), got);
        Mappings.unmap(middle);
    }

    @Test
    void aCorruptIndexIsRefused() throws IOException {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 2, 100, 200);
        try (RandomAccessFile index = new RandomAccessFile(files.index.toFile(), "rw")) {
            index.seek(9);
            index.write(index.read() ^ 0x40);
        }
        MapOutputException e = assertThrows(MapOutputException.class,
                () -> outputs(files).segment(MapOutputFiles.USER, MapOutputFiles.JOB, MapOutputFiles.MAP, 1));
        assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
        Files.write(files.index, new byte[30]);
        e = assertThrows(MapOutputException.class,
                () -> outputs(files).segment(MapOutputFiles.USER, MapOutputFiles.JOB, MapOutputFiles.MAP, 1));
        assertTrue(e.getMessage().contains("30 bytes"), e.getMessage());
    }

    @Test
    void missingAndTruncatedOutputsAreNamed() throws IOException {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 3, 100, 200);
        MapOutputs outputs = outputs(files);
        MapOutputs.Segment second = outputs.segment(MapOutputFiles.USER, MapOutputFiles.JOB, MapOutputFiles.MAP, 1);
        try (RandomAccessFile data = new RandomAccessFile(files.data.toFile(), "rw")) {
            data.setLength(250);
        }
        // Checked before mapping: a page past the end of the file would be a SIGBUS in MPI's copy.
        MapOutputException e = assertThrows(MapOutputException.class, () -> outputs.map(second, 0, 10));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        Files.delete(files.data);
        e = assertThrows(MapOutputException.class, () -> outputs.map(second, 0, 10));
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
        e = assertThrows(MapOutputException.class, () -> outputs.segment(MapOutputFiles.USER, MapOutputFiles.JOB,
                "attempt_1700000000000_0007_m_000009_0", 0));
        assertTrue(e.getMessage().contains("no map output"), e.getMessage());
        assertThrows(MapOutputException.class, () -> outputs.map(second, 150, 100));
    }

    @Test
    void onlyWellFormedRequestsOfTheOwnerAreServed() throws IOException {
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 4, 10);
        MapOutputs outputs = outputs(files);
        assertTrue(assertThrows(MapOutputException.class, () -> outputs.segment("someone-else", MapOutputFiles.JOB,
                MapOutputFiles.MAP, 0)).getMessage().contains("not served"));
        assertThrows(MapOutputException.class, () -> outputs.segment("..", MapOutputFiles.JOB, MapOutputFiles.MAP, 0));
        assertThrows(MapOutputException.class, () -> outputs.segment(MapOutputFiles.USER, "job_1/../x", MapOutputFiles.MAP, 0));
        assertThrows(MapOutputException.class, () -> outputs.segment(MapOutputFiles.USER, "job_1700000000000_0008",
                MapOutputFiles.MAP, 0));
        assertThrows(MapOutputException.class, () -> outputs.segment(MapOutputFiles.USER, MapOutputFiles.JOB,
                MapOutputFiles.MAP, 1));
        assertThrows(MapOutputException.class, () -> outputs.segment(MapOutputFiles.USER, MapOutputFiles.JOB,
                MapOutputFiles.MAP, -1));
    }

    @Test
    void theIndexCacheIsBoundedByBytesNotEntries() throws IOException {
        // 200 reducers: an index of 4,808 bytes per map. 12 maps of that fit a cache of 1,024
        // entries easily, but not one of 12,000 bytes.
        MapOutputFiles files = new MapOutputFiles(root.resolve("disk"), 13, new int[200]);
        Path output = files.index.getParent().getParent();
        List<String> maps = new java.util.ArrayList<>();
        for (int m = 0; m < 12; m++) {
            String map = MapOutputFiles.MAP.replace("_m_000003_", String.format("_m_%06d_", 100 + m));
            Files.createDirectories(output.resolve(map));
            Files.copy(files.index, output.resolve(map).resolve("file.out.index"));
            Files.copy(files.data, output.resolve(map).resolve("file.out"));
            maps.add(map);
        }
        MapOutputs outputs = new MapOutputs(List.of(files.localDir), MapOutputFiles.USER, 12_000);
        for (String map : maps) {
            assertEquals(0, outputs.segment(MapOutputFiles.USER, MapOutputFiles.JOB, map, 199).length());
            assertTrue(outputs.cachedBytes() > 4_800 && outputs.cachedBytes() <= 12_000, "cached: " + outputs.cachedBytes());
        }
        MapOutputs tiny = new MapOutputs(List.of(files.localDir), MapOutputFiles.USER, 1_000);
        assertEquals(0, tiny.segment(MapOutputFiles.USER, MapOutputFiles.JOB, maps.get(0), 7).length(),
                "an index larger than the whole cache is still served");
        assertEquals(0, tiny.cachedBytes());
        assertThrows(IllegalArgumentException.class, () -> new MapOutputs(List.of(files.localDir), MapOutputFiles.USER, -1));
    }
}
