package org.jvmreuse.pool.mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Small binary payloads of pool MPI messages: a run id followed by ints, a string or raw bytes. */
public final class Wire {
    private Wire() {
    }

    public static byte[] ints(long runId, int... values) {
        return build(out -> {
            out.writeLong(runId);
            for (int v : values) {
                out.writeInt(v);
            }
        });
    }

    public static byte[] text(long runId, String text) {
        return build(out -> {
            out.writeLong(runId);
            out.writeUTF(text);
        });
    }

    public static byte[] longAndBytes(long runId, long value, byte[] body) {
        return build(out -> {
            out.writeLong(runId);
            out.writeLong(value);
            out.write(body);
        });
    }

    public static byte[] intFlagAndText(long runId, int value, boolean flag, String text) {
        return build(out -> {
            out.writeLong(runId);
            out.writeInt(value);
            out.writeBoolean(flag);
            out.writeUTF(text);
        });
    }

    public static byte[] withBytes(long runId, byte[] body) {
        return build(out -> {
            out.writeLong(runId);
            out.write(body);
        });
    }

    public static DataInputStream reader(byte[] payload) {
        return new DataInputStream(new ByteArrayInputStream(payload));
    }

    /** The bytes that follow the run id in a {@link #withBytes} payload. */
    public static byte[] body(byte[] payload) {
        byte[] body = new byte[payload.length - Long.BYTES];
        System.arraycopy(payload, Long.BYTES, body, 0, body.length);
        return body;
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] build(Writer writer) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            writer.write(new DataOutputStream(bytes));
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
