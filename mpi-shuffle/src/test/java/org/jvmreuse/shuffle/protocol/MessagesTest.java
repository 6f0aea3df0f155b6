package org.jvmreuse.shuffle.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessagesTest {
    @Test
    void aReadSurvivesTheWire() throws IOException {
        Messages.Read read = new Messages.Read(42, Messages.Mode.BLOCKING, "alice", "job_1_0001",
                "attempt_1_0001_m_000000_0", 3, 1L << 33, 1 << 20, false, false, -1, "aGFzaA==");
        assertEquals(read, Messages.decode(read.encode()));
        Messages.Read direct = new Messages.Read(43, Messages.Mode.CONCURRENT, "alice", "job_1_0001",
                "attempt_1_0001_m_000000_0", 3, 4L << 20, 4 << 20, true, false, 3L << 20, "");
        assertEquals(direct, Messages.decode(direct.encode()));
        Messages.Read file = new Messages.Read(44, Messages.Mode.CONCURRENT, "alice", "job_1_0001",
                "attempt_1_0001_m_000000_0", 3, 0, 4 << 20, true, true, -1, "aGFzaA==");
        assertEquals(file, Messages.decode(file.encode()));
        assertFalse(read.direct());
        assertFalse(read.file());
        assertEquals(-1, read.release());
    }

    /**
     * A READ's HMAC is the one Hadoop's fetcher sends the ShuffleHandler for the same map output
     * (the same secret authenticates both ways), and it binds the job, the partition and the map.
     */
    @Test
    void theHashIsHadoopsShuffleHmacOfTheMapOutputsUrl() throws Exception {
        javax.crypto.SecretKey secret = org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager.createSecretKey(
                "the job's secret".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        String map = "attempt_1_0001_m_000002_0";
        String hash = RequestHash.of(secret, 13562, "job_1_0001", 3, map);
        java.net.URL url = new java.net.URL("http://node:13562/mapOutput?job=job_1_0001&reduce=3&map=" + map);
        assertEquals(org.apache.hadoop.mapreduce.security.SecureShuffleUtils.hashFromString(
                org.apache.hadoop.mapreduce.security.SecureShuffleUtils.buildMsgFrom(url), secret), hash);
        Messages.Read read = new Messages.Read(1, Messages.Mode.CONCURRENT, "alice", "job_1_0001", map, 3, 0, 4096, false,
                true, -1, hash);
        assertTrue(RequestHash.matches(read, secret, 13562));
        assertFalse(RequestHash.matches(read, secret, 13563), "another node's shuffle port");
        assertFalse(RequestHash.matches(new Messages.Read(1, Messages.Mode.CONCURRENT, "alice", "job_1_0001", map, 2, 0,
                4096, false, true, -1, hash), secret, 13562), "another partition");
        assertFalse(RequestHash.matches(new Messages.Read(1, Messages.Mode.CONCURRENT, "alice", "job_1_0002",
                "attempt_1_0002_m_000002_0", 3, 0, 4096, false, true, -1, hash), secret, 13562), "another job's map");
        assertFalse(RequestHash.matches(new Messages.Read(1, Messages.Mode.CONCURRENT, "alice", "job_1_0001", map, 3, 0,
                4096, false, true, -1, ""), secret, 13562), "no hash");
    }

    @Test
    void aDirectChunkIsAHeaderThatNamesWhereItIsMapped() throws IOException {
        ByteBuffer message = Messages.Data.direct(ByteBuffer.allocateDirect(64), 7, 100, 1000, 2000, 900, 4242, 0x7f0000001000L);
        assertEquals(Messages.Data.DIRECT_HEADER, message.limit());
        Messages.Data data = (Messages.Data) Messages.decode(message);
        assertEquals(new Messages.Data(7, 100, 1000, 2000, 900, 4242, 0x7f0000001000L), data);
        assertTrue(data.direct());
        assertFalse(data.file());
        assertFalse(((Messages.Data) Messages.decode(Messages.Data.header(ByteBuffer.allocate(64), 8, 0, 1000, 2000,
                null))).direct());
        assertThrows(IOException.class, () -> Messages.decode(Messages.Data.direct(ByteBuffer.allocate(64), 7, 100, 1000,
                2000, 900, 0, 0x1000)), "no process");
        assertThrows(IOException.class, () -> Messages.decode(Messages.Data.direct(ByteBuffer.allocate(64), 7, 100, 1000,
                2000, 0, 4242, 0x1000)), "no bytes");
        assertThrows(IOException.class, () -> Messages.decode(message.limit(Messages.Data.HEADER)));
        assertEquals(new Messages.Release(11), Messages.decode(new Messages.Release(11).encode()));
    }

    @Test
    void aLentFileIsAHeaderThatNamesTheDescriptorTheFileAndWhereTheSegmentStarts() throws IOException {
        long[] key = {0x803, 123456789L};
        ByteBuffer message = Messages.Data.file(ByteBuffer.allocateDirect(128), 9, 0, 1000, 2000, 4242, 17, 0, key);
        assertEquals(Messages.Data.FILE_HEADER, message.limit());
        Messages.Data data = (Messages.Data) Messages.decode(message);
        assertEquals(new Messages.Data(9, 0, 1000, 2000, 0, null, 4242, 0, 17, 0x803, 123456789L), data);
        assertTrue(data.lends(key));
        assertFalse(data.lends(new long[] {0x803, 123456788L}), "another inode");
        assertFalse(data.lends(new long[] {0x804, 123456789L}), "another device");
        assertFalse(data.lends(null), "a descriptor that names no file");
        assertTrue(data.file());
        assertFalse(data.direct(), "position 0 of the file is no mapped address");
        assertEquals(0, data.bytesLength(), "no bytes follow");
        assertThrows(IOException.class, () -> Messages.decode(Messages.Data.file(ByteBuffer.allocate(128), 9, 0, 1000, 2000,
                0, 17, 0, key)), "no process");
        assertThrows(IOException.class, () -> Messages.decode(Messages.Data.file(ByteBuffer.allocate(128), 9, 0, 1000, 2000,
                4242, -1, 0, key)), "no descriptor");
        assertThrows(IOException.class, () -> Messages.decode(message.limit(Messages.Data.DIRECT_HEADER)));
    }

    @Test
    void dataIsAHeaderFollowedByItsBytes() throws IOException {
        ByteBuffer bytes = ByteBuffer.allocateDirect(5).put(new byte[] {1, 2, 3, 4, 5}).flip();
        ByteBuffer message = Messages.Data.header(ByteBuffer.allocateDirect(64), 7, 100, 1000, 2000, bytes);
        assertEquals(Messages.Data.HEADER, message.limit());
        Messages.Data header = (Messages.Data) Messages.decode(message);
        assertEquals(7, header.requestId());
        assertEquals(100, header.offset());
        assertEquals(1000, header.segmentLength());
        assertEquals(2000, header.rawLength());
        assertEquals(5, header.bytesLength());
        Messages.Data data = header.with(bytes);
        byte[] copied = new byte[5];
        data.copy(1, copied, 2, 3);
        assertArrayEquals(new byte[] {0, 0, 2, 3, 4}, copied);
        assertThrows(IOException.class, () -> header.with(ByteBuffer.allocateDirect(4)));
        assertThrows(IOException.class, () -> Messages.decode(message.limit(message.limit() - 1)));
        assertEquals(0, ((Messages.Data) Messages.decode(Messages.Data.header(ByteBuffer.allocate(64), 8, 1000, 1000, 2000,
                null))).bytesLength());
    }

    @Test
    void failuresAndGarbage() throws IOException {
        Messages.Failure failure = (Messages.Failure) Messages.decode(new Messages.Failure(9, "gone").encode());
        assertEquals(9, failure.requestId());
        assertEquals("gone", failure.reason());
        assertFalse(failure.unavailable());
        assertTrue(((Messages.Failure) Messages.decode(new Messages.Failure(9, "stopping", true).encode())).unavailable());
        assertEquals(new Messages.Ping(5), Messages.decode(new Messages.Ping(5).encode()));
        assertEquals(new Messages.Alive(6), Messages.decode(new Messages.Alive(6).encode()));
        assertThrows(IOException.class, () -> Messages.decode(ByteBuffer.wrap(new byte[] {77, 1, 2})));
        assertThrows(IOException.class, () -> Messages.decode(ByteBuffer.allocate(0)));
    }

    @Test
    void announcementsRoundTrip() {
        Announcement a = new Announcement(13562, List.of("node1", "node1.cluster", "10.0.0.1"));
        assertEquals(a, Announcement.parse(a.format()));
        assertNull(Announcement.parse(""));
        assertNull(Announcement.parse("mpi-shuffle x node1"));
        assertNull(Announcement.parse("something else"));
    }
}
