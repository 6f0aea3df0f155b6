package org.jvmreuse.pool.protocol;

/**
 * The control protocol's names (docs/protocol.md): the framing, the frame types and the keys
 * the jvmreuse client and a Pool Manager exchange. The C client's {@code control_wire.h} is the
 * same table, name for name ({@code WIRE_RUN} here is {@link #RUN}); ControlWireTest checks that
 * the two agree and that the client names no part of the protocol but through that header.
 */
public final class ControlWire {
    /** Largest frame payload either side accepts. */
    public static final int MAX_PAYLOAD = 1 << 20;
    /** A frame's header: its payload's length, big-endian. */
    public static final int HEADER_LEN = 4;

    // Request types.
    public static final String RUN = "run";
    public static final String STATUS = "status";
    public static final String DRAIN = "drain";
    public static final String STOP = "stop";
    public static final String SIGNAL = "signal";
    public static final String CANCEL = "cancel";
    /** From a slot: the connection it rings its manager on. */
    public static final String DOORBELL = "doorbell";

    // Reply types (a status request is answered with a "status" frame).
    public static final String QUEUED = "queued";
    public static final String STARTED = "started";
    public static final String EXIT = "exit";
    public static final String FALLBACK = "fallback";
    public static final String ERROR = "error";
    public static final String OK = "ok";

    // Keys of a run request.
    /** Each word of the run's {@code java} command line (after {@code java}), in order. */
    public static final String JAVA_ARG = "java_arg";
    public static final String SHARED_CP = "shared_cp";
    public static final String ENV = "env";
    public static final String CWD = "cwd";
    public static final String STDIN = "stdin";
    public static final String STDOUT = "stdout";
    public static final String STDERR = "stderr";
    public static final String STDIN_KEY = "stdin_key";
    public static final String STDOUT_KEY = "stdout_key";
    public static final String STDERR_KEY = "stderr_key";
    public static final String KIND = "kind";
    public static final String WAIT_MS = "wait_ms";
    public static final String UMASK = "umask";
    public static final String RLIMIT = "rlimit";
    public static final String LC_CTYPE = "lc_ctype";
    public static final String LC_MESSAGES = "lc_messages";
    public static final String CODESET = "codeset";

    // Values of "kind".
    public static final String KIND_TASK = "task";
    public static final String KIND_AM = "am";

    // Keys of the other requests and of replies.
    public static final String SIG = "sig";
    public static final String NOW = "now";
    public static final String FORMAT = "format";
    public static final String JSON = "json";
    public static final String LINE = "line";
    public static final String MESSAGE = "message";
    public static final String REASON = "reason";
    public static final String POSITION = "position";
    public static final String SLOT = "slot";
    public static final String RANK = "rank";
    public static final String PID = "pid";
    public static final String CODE = "code";
    public static final String REUSE = "reuse";
    /** In {@code started}: a JVM option the run gave that the pool's JVMs were started without (-Xmx and the like). */
    public static final String IGNORED = "ignored";
    /** A doorbell's key. */
    public static final String KEY = "key";

    private ControlWire() {
    }
}
