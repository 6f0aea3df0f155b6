package org.jvmreuse.shuffle.protocol;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The MPI shuffle's messages (docs/shuffle.md). A reducer pulls a map output segment chunk by
 * chunk with {@link Read}; the Shuffle Manager answers each with {@link Data} (the bytes and
 * their CRC32C, which the reducer checks) or {@link Failure}. Every message is self-contained,
 * so the server keeps no state per reducer.
 */
public final class Messages {
    public static final byte READ = 1;
    public static final byte DATA = 2;
    public static final byte FAILURE = 3;

    private Messages() {
    }

    /** Serving modes: the paper's one request at a time, or many at once. */
    public enum Mode { BLOCKING, CONCURRENT }

    /** Bytes [offset, offset + length) of the segment of map output {@code mapId} for partition {@code reduce}. */
    public record Read(long requestId, Mode mode, String user, String jobId, String mapId, int reduce,
                       long offset, int length) {
        public byte[] encode() {
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
            });
        }

        static Read decode(DataInputStream in) throws IOException {
            long id = in.readLong();
            int mode = in.readByte();
            if (mode < 0 || mode >= Mode.values().length) {
                throw new IOException("unknown serving mode " + mode);
            }
            return new Read(id, Mode.values()[mode], in.readUTF(), in.readUTF(), in.readUTF(), in.readInt(),
                    in.readLong(), in.readInt());
        }
    }

    /**
     * A chunk: {@code segmentLength} is the segment's length on disk (IFile bytes with their
     * checksum), {@code rawLength} its decompressed length, as in Hadoop's shuffle header. The
     * bytes stay in the received message, at {@code bytesOffset}.
     */
    public record Data(long requestId, long offset, long segmentLength, long rawLength, int crc, byte[] bytes,
                       int bytesOffset, int bytesLength) {
        /** Where a chunk's bytes start in a DATA message. */
        public static final int HEADER = 1 + 4 * Long.BYTES + 2 * Integer.BYTES;

        /**
         * Completes a DATA message whose {@code message.length - HEADER} chunk bytes the caller
         * has put at {@link #HEADER} (the server reads the file straight into the message).
         */
        public static byte[] seal(byte[] message, long requestId, long offset, long segmentLength, long rawLength) {
            int length = message.length - HEADER;
            ByteBuffer.wrap(message).put(DATA).putLong(requestId).putLong(offset).putLong(segmentLength)
                    .putLong(rawLength).putInt(Messages.crc(message, HEADER, length)).putInt(length);
            return message;
        }

        /** Whether the bytes arrived as sent. */
        public boolean intact() {
            return Messages.crc(bytes, bytesOffset, bytesLength) == crc;
        }

        static Data decode(byte[] payload) throws IOException {
            if (payload.length < HEADER) {
                throw new IOException("a DATA message of " + payload.length + " bytes");
            }
            ByteBuffer in = ByteBuffer.wrap(payload, 1, HEADER - 1);
            Data data = new Data(in.getLong(), in.getLong(), in.getLong(), in.getLong(), in.getInt(), payload, HEADER,
                    in.getInt());
            if (data.bytesLength != payload.length - HEADER) {
                throw new IOException("a DATA message announces " + data.bytesLength + " bytes and carries "
                        + (payload.length - HEADER));
            }
            return data;
        }
    }

    /** Why a read cannot be served; the reducer reports a fetch failure for that map output. */
    public record Failure(long requestId, String reason) {
        public byte[] encode() {
            return build(out -> {
                out.writeByte(FAILURE);
                out.writeLong(requestId);
                out.writeUTF(reason.length() > 2000 ? reason.substring(0, 2000) : reason);
            });
        }
    }

    /** A decoded message: a {@link Read}, {@link Data} or {@link Failure}. */
    public static Object decode(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        byte kind = in.readByte();
        return switch (kind) {
            case READ -> Read.decode(in);
            case DATA -> Data.decode(payload);
            case FAILURE -> new Failure(in.readLong(), in.readUTF());
            default -> throw new IOException("unknown MPI shuffle message kind " + kind);
        };
    }

    public static int crc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.wrap(bytes, offset, length));
        return (int) crc.getValue();
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] build(Writer writer) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            writer.write(new DataOutputStream(bytes));
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
