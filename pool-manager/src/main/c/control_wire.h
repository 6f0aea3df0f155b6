/*
 * The control protocol's names (docs/protocol.md): the framing, the frame types and the keys
 * the jvmreuse client and a Pool Manager exchange. Java's org.jvmreuse.pool.protocol.ControlWire
 * is the same table; ControlWireTest checks that the two agree and that the client (client/)
 * names no part of the protocol but through this header.
 */
#ifndef JVMREUSE_CONTROL_WIRE_H
#define JVMREUSE_CONTROL_WIRE_H

#define WIRE_MAX_PAYLOAD (1024 * 1024)   /* largest frame payload either side accepts */
#define WIRE_HEADER_LEN 4                /* big-endian payload length */

/* Request types. */
#define WIRE_RUN "run"
#define WIRE_STATUS "status"
#define WIRE_DRAIN "drain"
#define WIRE_STOP "stop"
#define WIRE_SIGNAL "signal"
#define WIRE_CANCEL "cancel"
#define WIRE_DOORBELL "doorbell"    /* from a slot: the connection it rings its manager on */

/* Reply types (a status request is answered with a "status" frame). */
#define WIRE_QUEUED "queued"
#define WIRE_STARTED "started"
#define WIRE_EXIT "exit"
#define WIRE_FALLBACK "fallback"
#define WIRE_ERROR "error"
#define WIRE_OK "ok"

/* Keys of a run request. */
#define WIRE_JAVA_ARG "java_arg"
#define WIRE_SHARED_CP "shared_cp"
#define WIRE_ENV "env"
#define WIRE_CWD "cwd"
#define WIRE_STDIN "stdin"
#define WIRE_STDOUT "stdout"
#define WIRE_STDERR "stderr"
#define WIRE_STDIN_KEY "stdin_key"
#define WIRE_STDOUT_KEY "stdout_key"
#define WIRE_STDERR_KEY "stderr_key"
#define WIRE_KIND "kind"
#define WIRE_WAIT_MS "wait_ms"
#define WIRE_UMASK "umask"
#define WIRE_RLIMIT "rlimit"
#define WIRE_LC_CTYPE "lc_ctype"
#define WIRE_LC_MESSAGES "lc_messages"
#define WIRE_CODESET "codeset"

/* Values of "kind". */
#define WIRE_KIND_TASK "task"
#define WIRE_KIND_AM "am"

/* Keys of the other requests and of replies. */
#define WIRE_SIG "sig"
#define WIRE_NOW "now"
#define WIRE_FORMAT "format"
#define WIRE_JSON "json"
#define WIRE_LINE "line"
#define WIRE_MESSAGE "message"
#define WIRE_REASON "reason"
#define WIRE_POSITION "position"
#define WIRE_SLOT "slot"
#define WIRE_RANK "rank"
#define WIRE_PID "pid"
#define WIRE_CODE "code"
#define WIRE_REUSE "reuse"
#define WIRE_IGNORED "ignored"
#define WIRE_KEY "key"                  /* a doorbell's key */

#endif
