package org.jvmreuse.pool.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DirectBuffersTest {
    private static final int CHUNK_MESSAGE = (1 << 20) + 41;

    @Test
    void aBufferGivenBackIsTakenAgainForASimilarSize() {
        DirectBuffers buffers = new DirectBuffers();
        ByteBuffer first = buffers.take(CHUNK_MESSAGE);
        assertTrue(first.isDirect());
        assertEquals(0, first.position());
        assertEquals(CHUNK_MESSAGE, first.limit());
        first.position(100);
        buffers.give(first);
        ByteBuffer again = buffers.take(CHUNK_MESSAGE - 1000);
        assertSame(first, again);
        assertEquals(0, again.position());
        assertEquals(CHUNK_MESSAGE - 1000, again.limit());
    }

    @Test
    void aSmallMessageDoesNotTieUpALargeBuffer() {
        DirectBuffers buffers = new DirectBuffers();
        ByteBuffer large = buffers.take(CHUNK_MESSAGE);
        buffers.give(large);
        ByteBuffer small = buffers.take(60);
        assertNotSame(large, small);
        assertTrue(small.capacity() < 8192, "capacity " + small.capacity());
        assertSame(large, buffers.take(CHUNK_MESSAGE));
    }

    @Test
    void aBufferGivenBackTwiceIsHandedOutOnce() {
        DirectBuffers buffers = new DirectBuffers();
        ByteBuffer buffer = buffers.take(5000);
        buffers.give(buffer);
        buffers.give(buffer);
        assertSame(buffer, buffers.take(5000));
        assertNotSame(buffer, buffers.take(5000));
    }

    @Test
    void atMost64MiBAreKept() {
        DirectBuffers buffers = new DirectBuffers();
        List<ByteBuffer> out = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            out.add(buffers.take(CHUNK_MESSAGE));
        }
        out.forEach(buffers::give);
        int reused = 0;
        for (int i = 0; i < 100; i++) {
            ByteBuffer b = buffers.take(CHUNK_MESSAGE);
            reused += out.stream().anyMatch(o -> o == b) ? 1 : 0;
        }
        long capacity = out.get(0).capacity();
        assertEquals((64L << 20) / capacity, reused);
    }
}
