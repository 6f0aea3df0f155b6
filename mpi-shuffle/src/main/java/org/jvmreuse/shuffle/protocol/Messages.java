package org.jvmreuse.shuffle.protocol;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The MPI shuffle's messages (docs/shuffle.md). A reducer pulls a map output segment chunk by
 * chunk with {@link Read}; the Shuffle Manager answers each with {@link Data} (a header, then
 * the bytes) or {@link Failure}. No checksum per chunk: Hadoop's IFile checksum, which the
 * reducer checks as for HTTP, covers the whole segment end to end. Every message is self-contained,
 * so the server keeps no state per reducer.
 */
public final class Messages {
    public static final byte READ = 1;
    public static final byte DATA = 2;
    public static final byte FAILURE = 3;
    public static final byte PING = 4;
    public static final byte ALIVE = 5;
    public static final byte DIRECT = 6;
    public static final byte RELEASE = 7;
    public static final byte FILE = 8;

    private Messages() {
    }

    /** Serving modes: the paper's one request at a time, or many at once. */
    public enum Mode { BLOCKING, CONCURRENT }

    /**
     * Bytes [offset, offset + length) of the segment of map output {@code mapId} for partition
     * {@code reduce}. {@code direct}: the reducer can copy the chunk out of the server's memory
     * itself (it runs on the server's host and may read its memory), so a server on its host
     * answers with a {@link Data} that names where the chunk is mapped instead of sending it.
     * {@code file}: the reducer can also take the map output's open file out of the server's
     * process and read the whole segment itself, so a server on its host answers with a FILE
     * {@link Data} that names the descriptor (then no more reads of the segment follow).
     * {@code release}: the offset of a direct chunk of this request that the reducer has copied
     * (its mapping can go), or -1. {@code hash}: the job's shuffle HMAC of the map output asked
     * for ({@link RequestHash}), without which the server serves nothing.
     */
    public record Read(long requestId, Mode mode, String user, String jobId, String mapId, int reduce,
                       long offset, int length, boolean direct, boolean file, long release, String hash) {

        public ByteBuffer encode() {
            return build(out -> {
                out.writeByte(READ);
                out.writeLong(requestId);
                out.writeByte(mode.ordinal());
                out.writeUTF(user);
                out.writeUTF(jobId);
                out.writeUTF(mapId);
                out.writeInt(reduce);
                out.writeLong(offset);
                out.writeInt(length);
                out.writeBoolean(direct);
                out.writeBoolean(file);
                out.writeLong(release);
                out.writeUTF(hash);
            });
        }

        static Read decode(DataInputStream in) throws IOException {
            long id = in.readLong();
            int mode = in.readByte();
            if (mode < 0 || mode >= Mode.values().length) {
                throw new IOException("unknown serving mode " + mode);
            }
            return new Read(id, Mode.values()[mode], in.readUTF(), in.readUTF(), in.readUTF(), in.readInt(),
                    in.readLong(), in.readInt(), in.readBoolean(), in.readBoolean(), in.readLong(), in.readUTF());
        }
    }

    /**
     * A chunk: {@code segmentLength} is the segment's length on disk (IFile bytes with their
     * checksum), {@code rawLength} its decompressed length, as in Hadoop's shuffle header. On the
     * wire a DATA message is this header alone; its {@code length} bytes, if any, follow as the
     * next message from the same rank (the server sends them in place from the mapped file).
     * {@code bytes} holds them once they arrived (position 0, limit {@code length}). A DIRECT
     * message is the same header with {@code pid} and {@code address}: the chunk stays in the
     * server's process {@code pid}, mapped at {@code address}, for the reducer to copy itself. A
     * FILE message lends the whole segment from {@code offset} on, with no bytes ({@code length}
     * 0): it is at position {@code address} of the file open as descriptor {@code fd} in process
     * {@code pid}, for the reducer to take and read itself ({@code fd} is -1 in every other message);
     * {@code device} and {@code inode} name that file, so that the reducer can tell that what it
     * took is what was lent (not another file under a reused descriptor or process id).
     */
    public record Data(long requestId, long offset, long segmentLength, long rawLength, int length, ByteBuffer bytes,
                       long pid, long address, int fd, long device, long inode) {
        /** The length of a DATA message. */
        public static final int HEADER = 1 + 4 * Long.BYTES + Integer.BYTES;
        /** The length of a DIRECT message. */
        public static final int DIRECT_HEADER = HEADER + 2 * Long.BYTES;
        /** The length of a FILE message. */
        public static final int FILE_HEADER = DIRECT_HEADER + Integer.BYTES + 2 * Long.BYTES;

        public Data(long requestId, long offset, long segmentLength, long rawLength, int length, ByteBuffer bytes) {
            this(requestId, offset, segmentLength, rawLength, length, bytes, 0, 0, -1, 0, 0);
        }

        /** A DIRECT message's header: {@code length} bytes at {@code address} of process {@code pid}. */
        public Data(long requestId, long offset, long segmentLength, long rawLength, int length, long pid, long address) {
            this(requestId, offset, segmentLength, rawLength, length, null, pid, address, -1, 0, 0);
        }

        /** Writes the DATA message for {@code bytes} (0 to its limit) into {@code message}; returns it at position 0. */
        public static ByteBuffer header(ByteBuffer message, long requestId, long offset, long segmentLength, long rawLength,
                                        ByteBuffer bytes) {
            message.clear().limit(HEADER);
            message.put(0, DATA).putLong(1, requestId).putLong(9, offset).putLong(17, segmentLength)
                    .putLong(25, rawLength).putInt(33, bytes == null ? 0 : bytes.limit());
            return message;
        }

        /** Writes the DIRECT message for {@code length} bytes at {@code address} of process {@code pid}; at position 0. */
        public static ByteBuffer direct(ByteBuffer message, long requestId, long offset, long segmentLength, long rawLength,
                                        int length, long pid, long address) {
            message.clear().limit(DIRECT_HEADER);
            message.put(0, DIRECT).putLong(1, requestId).putLong(9, offset).putLong(17, segmentLength)
                    .putLong(25, rawLength).putInt(33, length).putLong(HEADER, pid).putLong(HEADER + 8, address);
            return message;
        }

        /**
         * Writes the FILE message lending the segment from {@code offset} on, at {@code position} of
         * descriptor {@code fd} of process {@code pid}, the file {@code key} ({device, inode}); at position 0.
         */
        public static ByteBuffer file(ByteBuffer message, long requestId, long offset, long segmentLength, long rawLength,
                                      long pid, int fd, long position, long[] key) {
            message.clear().limit(FILE_HEADER);
            message.put(0, FILE).putLong(1, requestId).putLong(9, offset).putLong(17, segmentLength)
                    .putLong(25, rawLength).putInt(33, 0).putLong(HEADER, pid).putLong(HEADER + 8, position)
                    .putInt(DIRECT_HEADER, fd).putLong(DIRECT_HEADER + 4, key[0]).putLong(DIRECT_HEADER + 12, key[1]);
            return message;
        }

        /** Whether {@code key} ({device, inode}) names the file this FILE message lends. */
        public boolean lends(long[] key) {
            return key != null && key.length == 2 && key[0] == device && key[1] == inode;
        }

        /** Whether the chunk's bytes stay in the server's memory, for the reducer to copy ({@link #DIRECT}). */
        public boolean direct() {
            return fd < 0 && address != 0;
        }

        /** Whether this lends the segment's file ({@link #FILE}). */
        public boolean file() {
            return fd >= 0;
        }

        public int bytesLength() {
            return length;
        }

        /** This chunk with its bytes, the message that followed its header. */
        public Data with(ByteBuffer arrived) throws IOException {
            if (arrived.limit() != length) {
                throw new IOException("a DATA message announces " + length + " bytes and " + arrived.limit() + " followed");
            }
            return new Data(requestId, offset, segmentLength, rawLength, length, arrived);
        }

        /** Copies {@code length} chunk bytes from {@code from} into {@code into} at {@code at}. */
        public void copy(int from, byte[] into, int at, int length) {
            bytes.get(from, into, at, length);
        }

        static Data decode(ByteBuffer payload) throws IOException {
            byte kind = payload.get(0);
            boolean direct = kind == DIRECT;
            boolean file = kind == FILE;
            String name = direct ? "DIRECT" : file ? "FILE" : "DATA";
            if (payload.limit() != (direct ? DIRECT_HEADER : file ? FILE_HEADER : HEADER)) {
                throw new IOException("a " + name + " message of " + payload.limit() + " bytes");
            }
            int length = payload.getInt(33);
            if (length < 0 || direct && length == 0 || file && length != 0) {
                throw new IOException("a " + name + " message announces " + length + " bytes");
            }
            long pid = direct || file ? payload.getLong(HEADER) : 0;
            long address = direct || file ? payload.getLong(HEADER + 8) : 0;
            int fd = file ? payload.getInt(DIRECT_HEADER) : -1;
            if (direct && (pid <= 0 || address == 0)) {
                throw new IOException("a DIRECT message names address " + address + " of process " + pid);
            }
            if (file && (pid <= 0 || fd < 0 || address < 0)) {
                throw new IOException("a FILE message names descriptor " + fd + " of process " + pid + " at " + address);
            }
            return new Data(payload.getLong(1), payload.getLong(9), payload.getLong(17), payload.getLong(25), length, null,
                    pid, address, fd, file ? payload.getLong(DIRECT_HEADER + 4) : 0, file ? payload.getLong(DIRECT_HEADER + 12) : 0);
        }
    }

    /**
     * Why a read cannot be served. {@code unavailable}: the Shuffle Manager itself cannot serve
     * anything (it is stopping), so the reducer takes that host's outputs over HTTP; otherwise it
     * reports a fetch failure for that map output.
     */
    public record Failure(long requestId, String reason, boolean unavailable) {
        public Failure(long requestId, String reason) {
            this(requestId, reason, false);
        }

        public ByteBuffer encode() {
            return build(out -> {
                out.writeByte(FAILURE);
                out.writeLong(requestId);
                out.writeUTF(reason.length() > 2000 ? reason.substring(0, 2000) : reason);
                out.writeBoolean(unavailable);
            });
        }
    }

    /**
     * A liveness check of a Shuffle Manager, sent by a reducer whose reads are late; the server
     * answers at once with {@link Alive} (on its communication thread, ahead of queued reads).
     */
    public record Ping(long requestId) {
        public ByteBuffer encode() {
            return build(out -> {
                out.writeByte(PING);
                out.writeLong(requestId);
            });
        }
    }

    /** The reducer is done with every direct chunk and lent file of request {@code requestId}: their mappings and descriptors can go. */
    public record Release(long requestId) {
        public ByteBuffer encode() {
            return build(out -> {
                out.writeByte(RELEASE);
                out.writeLong(requestId);
            });
        }
    }

    /** The answer to a {@link Ping}: the Shuffle Manager is there and still serving. */
    public record Alive(long requestId) {
        public ByteBuffer encode() {
            return build(out -> {
                out.writeByte(ALIVE);
                out.writeLong(requestId);
            });
        }
    }

    /**
     * A decoded message (bytes 0 to the limit of {@code payload}): a {@link Read}, {@link Data}
     * (DATA, DIRECT or FILE), {@link Failure}, {@link Ping}, {@link Alive} or {@link Release}, copied out of {@code payload} (a DATA message's bytes follow it).
     */
    public static Object decode(ByteBuffer payload) throws IOException {
        if (payload.limit() == 0) {
            throw new IOException("an empty MPI shuffle message");
        }
        byte kind = payload.get(0);
        if (kind == DATA || kind == DIRECT || kind == FILE) {
            return Data.decode(payload);
        }
        byte[] bytes = new byte[payload.limit() - 1];
        payload.get(1, bytes);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        return switch (kind) {
            case READ -> Read.decode(in);
            case FAILURE -> new Failure(in.readLong(), in.readUTF(), in.readBoolean());
            case PING -> new Ping(in.readLong());
            case ALIVE -> new Alive(in.readLong());
            case RELEASE -> new Release(in.readLong());
            default -> throw new IOException("unknown MPI shuffle message kind " + kind);
        };
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private static ByteBuffer build(Writer writer) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            writer.write(new DataOutputStream(bytes));
            return ByteBuffer.wrap(bytes.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
