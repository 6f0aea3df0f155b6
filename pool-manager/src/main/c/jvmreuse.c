/*
 * jvmreuse: the command-line client of a node's pool of warm JVMs.
 *
 *   jvmreuse [--socket PATH] run [-v] [--wait-ms N] [--start-timeout-ms N] [--shared-cp CP] [--kind task|am] [java options] -cp CP MAIN [args...]
 *   jvmreuse [--socket PATH] status [--json] | drain | stop [--now]
 *   jvmreuse --help | --version
 *
 * `run` behaves like `java`: the program runs in a pool slot while this process relays
 * its stdin/stdout/stderr through FIFOs and exits with the program's exit code.  When
 * the pool cannot take the run, it execs a normal JVM with the same arguments instead.
 * The protocol is described in docs/protocol.md.
 *
 * Written in C against libc only because it must start in about a millisecond: a JVM
 * (or even a shell wrapper) would eat much of what the pool saves.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "control_wire.h"
#include "startup_settings.h"

/* The Maven project version and the git commit, from the Makefile (-D); no date: the build stays reproducible. */
#ifndef JVMREUSE_VERSION
#define JVMREUSE_VERSION "unknown"
#endif

#define RELAY_BUF (64 * 1024)
#define DEFAULT_WAIT_MS 30000
#define EXIT_USAGE 2
#define BACKGROUND_RECHECK_MS 200
#define START_TIMEOUT_EXTRA_MS 30000 /* default time before `started`: wait_ms plus this */
#define CANCEL_REPLY_MS 5000        /* after the start timeout, how long the pool has to answer `cancel` */
#define CONNECT_RETRY_MS 2000       /* how long a full listen backlog is retried */
#define SOCKET_IO_TIMEOUT_S 30      /* longest a send or the rest of a begun frame may take */
#define STALE_FIFO_DIR_S 600        /* a dead client's FIFO directory older than this is swept */

static bool verbose;

/* ---------------------------------------------------------------- messages */

/* Where our own messages go: stderr, or an O_APPEND copy of it while a slot appends to the
   same regular file (see catch_up_direct_file). */
static int message_fd = STDERR_FILENO;

static void vsay(const char *fmt, va_list ap)
{
    char line[4096];
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    dprintf(message_fd, "jvmreuse: %.*s", n, line);
}

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
}

static noreturn void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
    exit(code);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (p == NULL)
        die(1, "out of memory");
    return p;
}

static char *xasprintf(const char *fmt, ...)
{
    char *s;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        die(1, "out of memory");
    return s;
}

static void usage(FILE *to)
{
    fputs("jvmreuse " JVMREUSE_VERSION ": the client of a node's pool of warm JVMs (JVM Reuse)\n"
          "\n"
          "usage: jvmreuse [--socket PATH] COMMAND\n"
          "       jvmreuse --help | --version\n"
          "\n"
          "commands:\n"
          "  run [-v] [--wait-ms N] [--start-timeout-ms N] [--shared-cp LIBS] [--kind KIND] [java options] -cp CLASSPATH MAINCLASS [args...]\n"
          "        run MAINCLASS in a warm JVM of the pool, like `java` would; without a\n"
          "        usable pool, start a normal JVM instead.\n"
          "        -v           tell on stderr where the run goes (or JVMREUSE_VERBOSE=1)\n"
          "        --wait-ms N  wait at most N ms for a free slot (default 30000, or\n"
          "                     JVMREUSE_WAIT_MS), then start a normal JVM\n"
          "        --start-timeout-ms N  start a normal JVM if the pool has not started the\n"
          "                     program within N ms (default: wait-ms + 30000, or\n"
          "                     JVMREUSE_START_TIMEOUT_MS)\n"
          "        --shared-cp LIBS  class path entries (also on -cp) whose classes the slot\n"
          "                     keeps loaded across runs, statics included (or JVMREUSE_SHARED_CP)\n"
          "        --kind KIND  task (default) or am: an application master, which holds its\n"
          "                     slot for a whole job; the pool gives those at most --am-slots\n"
          "                     slots, and tasks queued behind one that waits go first\n"
          "        java options: -cp/-classpath/--class-path, -Dname=value; --add-opens and\n"
          "        --add-exports MODULE/PACKAGE=ALL-UNNAMED (also with '='), which the slot checks\n"
          "        its JVM gives (a normal JVM if not); -Xss (the main thread's stack);\n"
          "        -Xmx/-Xms/-Xmn, -XX:... (but -XX:+Print...), -server and -client are ignored\n"
          "        (the pool's JVMs are already running); any other option, or\n"
          "        JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS or _JAVA_OPTIONS in the environment, makes\n"
          "        the run use a normal JVM. The umask, resource limits, time zone, locale and\n"
          "        encodings are the run's, or it uses a normal JVM (docs/protocol.md).\n"
          "  status [--json]     print the pool's state (--json: one line of JSON, for scripts;\n"
          "                      fields in docs/protocol.md)\n"
          "  drain               stop accepting runs; running ones finish\n"
          "  stop [--now]        drain and shut the pool down (--now: end running runs)\n"
          "\n"
          "environment: JVMREUSE_SOCKET (the pool's socket, else /tmp/jvmreuse-<uid>/pool.sock),\n"
          "  JVMREUSE_VERBOSE, JVMREUSE_WAIT_MS, JVMREUSE_START_TIMEOUT_MS, JVMREUSE_SHARED_CP (above);\n"
          "  a normal JVM is $JAVA_HOME/bin/java, else java from PATH.\n"
          "\n"
          "example: jvmreuse run -cp app.jar org.example.Main arg1   (exit status: the program's)\n"
          "         jvmreuse status --json\n",
          to);
}

/* ------------------------------------------------------------------ frames */

/* An outgoing message; data[0..WIRE_HEADER_LEN) is reserved for the frame header. */
struct msg {
    char *data;
    size_t len, cap;
    bool too_big;   /* a field did not fit in WIRE_MAX_PAYLOAD; the message must not be sent */
};

static void msg_append(struct msg *m, const char *s, size_t n)
{
    if (m->len + n > m->cap) {
        while (m->len + n > m->cap)
            m->cap = m->cap ? 2 * m->cap : 4096;
        m->data = xrealloc(m->data, m->cap);
    }
    memcpy(m->data + m->len, s, n);
    m->len += n;
}

/* Appends "key=value\0". */
static void msg_add(struct msg *m, const char *key, const char *value)
{
    size_t klen = strlen(key), vlen = strlen(value);
    if (m->too_big || klen + vlen + 2 > WIRE_HEADER_LEN + WIRE_MAX_PAYLOAD - m->len) {
        m->too_big = true;
        return;
    }
    msg_append(m, key, klen);
    msg_append(m, "=", 1);
    msg_append(m, value, vlen + 1);
}

static void msg_init(struct msg *m, const char *type)
{
    *m = (struct msg){ 0 };
    msg_append(m, "\0\0\0\0", WIRE_HEADER_LEN);
    msg_append(m, type, strlen(type) + 1);
}

/* Sends all of buf; MSG_NOSIGNAL turns a closed peer into EPIPE instead of SIGPIPE. */
static int send_all(int sock, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = send(sock, buf, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

static int msg_send(int sock, struct msg *m)
{
    uint32_t n = (uint32_t)(m->len - WIRE_HEADER_LEN);
    unsigned char *h = (unsigned char *)m->data;
    h[0] = (unsigned char)(n >> 24);
    h[1] = (unsigned char)(n >> 16);
    h[2] = (unsigned char)(n >> 8);
    h[3] = (unsigned char)n;
    return send_all(sock, m->data, m->len);
}

/* An incoming message: NUL-terminated strings, the first one the type. */
struct frame {
    char *data;
    size_t len;
    size_t fields;  /* offset of the first field */
};

enum { FRAME_BAD = -1, FRAME_EOF = 0, FRAME_OK = 1 };

/* Reads up to n bytes, fewer only at end of file; -1 on error. */
static ssize_t read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r == 0)
            break;
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/*
 * Reads one frame (blocking).  FRAME_EOF: the peer closed (or reset) the connection
 * between frames.  FRAME_BAD: *problem says what was wrong.
 */
static int read_frame(int sock, struct frame *f, const char **problem)
{
    unsigned char h[WIRE_HEADER_LEN];
    ssize_t n = read_full(sock, h, sizeof h);
    if (n == 0 || (n < 0 && errno == ECONNRESET))
        return FRAME_EOF;
    if (n < 0) {
        *problem = errno == EAGAIN ? "no complete message within the socket's time limit" : strerror(errno);
        return FRAME_BAD;
    }
    if (n < WIRE_HEADER_LEN) {
        *problem = "connection closed in the middle of a message";
        return FRAME_BAD;
    }
    uint32_t len = (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 | (uint32_t)h[2] << 8 | h[3];
    if (len == 0 || len > WIRE_MAX_PAYLOAD) {
        *problem = "message length outside 1 byte .. 1 MiB";
        return FRAME_BAD;
    }
    f->data = xrealloc(NULL, len);
    f->len = len;
    n = read_full(sock, f->data, len);
    if (n != (ssize_t)len) {
        *problem = n < 0 ? (errno == EAGAIN ? "no complete message within the socket's time limit" : strerror(errno))
                         : "connection closed in the middle of a message";
        free(f->data);
        return FRAME_BAD;
    }
    if (f->data[len - 1] != '\0') {
        *problem = "message not NUL-terminated";
        free(f->data);
        return FRAME_BAD;
    }
    f->fields = strlen(f->data) + 1;
    return FRAME_OK;
}

/* The value of the next field `key` at or after offset *pos, which moves past it. */
static const char *frame_next(const struct frame *f, const char *key, size_t *pos)
{
    size_t klen = strlen(key);
    while (*pos < f->len) {
        const char *s = f->data + *pos;
        *pos += strlen(s) + 1;
        if (strncmp(s, key, klen) == 0 && s[klen] == '=')
            return s + klen + 1;
    }
    return NULL;
}

/* The value of the first field `key`, or `missing`. */
static const char *frame_get(const struct frame *f, const char *key, const char *missing)
{
    size_t pos = f->fields;
    const char *v = frame_next(f, key, &pos);
    return v ? v : missing;
}

static bool frame_is(const struct frame *f, const char *type)
{
    return strcmp(f->data, type) == 0;
}

/* -------------------------------------------------------------- connection */

static char *socket_path_from_env(void)
{
    const char *s = getenv("JVMREUSE_SOCKET");
    if (s != NULL && *s != '\0')
        return xasprintf("%s", s);
    return xasprintf("/tmp/jvmreuse-%u/pool.sock", (unsigned)getuid());
}

/* Why the socket at path is not one only we can have made, or NULL; *absent tells that the
   directory or the socket is simply not there (no pool).  The directory must be a real
   directory (not a symlink) of ours that nobody else may enter: then nobody but us can have
   put a listener in it or swap it afterwards.  The socket must be a socket of ours. */
static char *untrusted_socket(const char *path, bool *absent)
{
    char *copy = xasprintf("%s", path);
    char *dir = dirname(copy);
    uid_t me = geteuid();
    struct stat st;
    char *why = NULL;
    *absent = false;
    if (lstat(dir, &st) < 0) {
        *absent = errno == ENOENT || errno == ENOTDIR;
        why = xasprintf("cannot examine the pool's directory %s: %s", dir, strerror(errno));
    } else if (S_ISLNK(st.st_mode)) {
        why = xasprintf("the pool's directory %s is a symbolic link; not trusting it", dir);
    } else if (!S_ISDIR(st.st_mode)) {
        why = xasprintf("the pool's directory %s is not a directory; not trusting it", dir);
    } else if (st.st_uid != me) {
        why = xasprintf("the pool's directory %s belongs to uid %u, not to us (uid %u); not trusting it",
                        dir, (unsigned)st.st_uid, (unsigned)me);
    } else if (st.st_mode & 077) {
        why = xasprintf("the pool's directory %s has mode %03o, open to other users; not trusting it",
                        dir, (unsigned)(st.st_mode & 0777));
    } else if (lstat(path, &st) < 0) {
        *absent = errno == ENOENT;
        why = xasprintf("cannot examine %s: %s", path, strerror(errno));
    } else if (!S_ISSOCK(st.st_mode)) {
        why = xasprintf("%s is not a socket; not trusting it", path);
    } else if (st.st_uid != me) {
        why = xasprintf("%s belongs to uid %u, not to us (uid %u); not trusting it", path,
                        (unsigned)st.st_uid, (unsigned)me);
    }
    free(copy);
    return why;
}

/*
 * Returns a connected socket to a pool we verified, or -1 with *problem set; *loud: say the
 * problem even without -v (a pool or directory that is not ours, or one that does not take
 * connections, is a misconfiguration or an attack, not just "no pool").  A Unix socket whose
 * listen backlog is full makes a blocking connect wait forever, so the connect is
 * non-blocking and retried for CONNECT_RETRY_MS.
 */
static int connect_pool(const char *path, char **problem, bool *loud)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    bool absent;
    *loud = false;
    if (strlen(path) >= sizeof addr.sun_path) {
        *problem = xasprintf("cannot connect to %s: %s", path, strerror(ENAMETOOLONG));
        return -1;
    }
    char *why = untrusted_socket(path, &absent);
    if (why != NULL) {
        *loud = !absent;
        *problem = absent ? xasprintf("no pool at %s", path) : why;
        return -1;
    }
    strcpy(addr.sun_path, path);
    int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (sock < 0) {
        *problem = xasprintf("cannot create a socket: %s", strerror(errno));
        return -1;
    }
    int waited = 0;
    while (connect(sock, (struct sockaddr *)&addr, sizeof addr) < 0) {
        if (errno == EAGAIN && waited < CONNECT_RETRY_MS) {
            usleep(10 * 1000);
            waited += 10;
            continue;
        }
        if (errno == EINTR)
            continue;
        int e = errno;
        close(sock);
        if (e == ENOENT || e == ECONNREFUSED) {
            *problem = xasprintf("no pool at %s", path);
        } else if (e == EAGAIN) {
            *loud = true;
            *problem = xasprintf("the pool at %s takes no connections (waited %d ms)", path, CONNECT_RETRY_MS);
        } else {
            *loud = e == EACCES || e == EPERM;
            *problem = xasprintf("cannot connect to %s: %s", path, strerror(e));
        }
        return -1;
    }
    /* Blocking again, but no single send or partial frame may stall us forever. */
    struct timeval io = { .tv_sec = SOCKET_IO_TIMEOUT_S };
    struct ucred peer;
    socklen_t len = sizeof peer;
    if (fcntl(sock, F_SETFL, 0) < 0 || setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &io, sizeof io) < 0
        || setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &io, sizeof io) < 0
        || getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &peer, &len) < 0) {
        *problem = xasprintf("cannot set up the connection to %s: %s", path, strerror(errno));
        close(sock);
        return -1;
    }
    if (peer.uid != geteuid()) {
        *loud = true;
        *problem = xasprintf("the process listening at %s runs as uid %u, not as us (uid %u); not trusting it",
                             path, (unsigned)peer.uid, (unsigned)geteuid());
        close(sock);
        return -1;
    }
    return sock;
}

/* ------------------------------------------------------- status/drain/stop */

static noreturn void cmd_control(const char *socket_path, const char *type, bool now, bool json)
{
    char *problem;
    bool loud;
    int sock = connect_pool(socket_path, &problem, &loud);
    if (sock < 0)
        die(1, "%s", problem);
    struct msg m;
    msg_init(&m, type);
    if (now)
        msg_add(&m, WIRE_NOW, "1");
    if (json)
        msg_add(&m, WIRE_FORMAT, WIRE_JSON);
    if (msg_send(sock, &m) < 0 && errno != EPIPE && errno != ECONNRESET)
        die(1, "cannot send to the pool: %s", strerror(errno));
    /* After EPIPE the manager may still have left an `error` reply to read. */

    struct frame f;
    const char *bad;
    int r = read_frame(sock, &f, &bad);
    if (r == FRAME_EOF)
        die(1, "the pool closed the connection without a reply");
    if (r == FRAME_BAD)
        die(1, "bad reply from the pool: %s", bad);
    if (frame_is(&f, WIRE_ERROR))
        die(1, "pool refused the request: %s", frame_get(&f, WIRE_MESSAGE, "(no message)"));
    if (frame_is(&f, WIRE_FALLBACK))
        die(1, "the pool cannot take the request now: %s", frame_get(&f, WIRE_REASON, "(no reason)"));
    if (frame_is(&f, WIRE_STATUS) && json) {
        const char *text = frame_get(&f, WIRE_JSON, NULL);
        if (text == NULL)
            die(1, "the pool sent no JSON status (a pool older than this client?)");
        puts(text);
    } else if (frame_is(&f, WIRE_STATUS) && strcmp(type, WIRE_STATUS) == 0) {
        size_t pos = f.fields;
        const char *line;
        while ((line = frame_next(&f, WIRE_LINE, &pos)) != NULL)
            puts(line);
    } else if (frame_is(&f, WIRE_OK) && strcmp(type, WIRE_STATUS) != 0) {
        puts(frame_get(&f, WIRE_MESSAGE, WIRE_OK));
    } else {
        die(1, "unexpected reply '%s' from the pool", f.data);
    }
    if (fflush(stdout) != 0)
        die(1, "cannot write to stdout: %s", strerror(errno));
    exit(0);
}

/* ------------------------------------------------------------- run options */

struct run_opts {
    char **java_args;       /* the arguments `java` gets on fallback */
    int n_java_args;
    const char *cp;         /* as given; made absolute in the request */
    const char *main_class;
    char **args;            /* the program's arguments */
    int n_args;
    char **props;           /* "name=value" */
    int n_props;
    char **ignored;         /* JVM options accepted but not applied */
    int n_ignored;
    char **opens;           /* "module/package" of --add-opens ...=ALL-UNNAMED, which the slot checks */
    int n_opens;
    char **exports;         /* the same for --add-exports */
    int n_exports;
    char *unsupported;      /* why only a new JVM can honour the options, for the first such option */
    const char *shared_cp;  /* entries a slot may keep loaded across runs (--shared-cp) */
    const char *kind;       /* "task" or "am" (--kind) */
    const char *stack_size; /* -Xss's value (the last one, as for java), applied to the program's main thread */
    long wait_ms;
    long start_timeout_ms;  /* -1: wait_ms + START_TIMEOUT_EXTRA_MS */
};

static long parse_wait_ms(const char *s, const char *what)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno != 0 || v < 0 || v > INT_MAX)
        die(EXIT_USAGE, "invalid %s '%s': expected milliseconds", what, s);
    return v;
}

static const char *parse_kind(const char *s)
{
    if (strcmp(s, WIRE_KIND_TASK) != 0 && strcmp(s, WIRE_KIND_AM) != 0)
        die(EXIT_USAGE, "invalid --kind '%s': expected task or am", s);
    return s;
}

/* Options of the client itself, between `run` and the java options. Returns how many. */
static int parse_client_options(struct run_opts *o, int argc, char **argv)
{
    int i = 0;
    while (i < argc) {
        if (strcmp(argv[i], "-v") == 0) {
            verbose = true;
            i++;
        } else if (strcmp(argv[i], "--wait-ms") == 0) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "--wait-ms needs a value");
            o->wait_ms = parse_wait_ms(argv[i + 1], "--wait-ms");
            i += 2;
        } else if (strncmp(argv[i], "--wait-ms=", 10) == 0) {
            o->wait_ms = parse_wait_ms(argv[i] + 10, "--wait-ms");
            i++;
        } else if (strcmp(argv[i], "--start-timeout-ms") == 0) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "--start-timeout-ms needs a value");
            o->start_timeout_ms = parse_wait_ms(argv[i + 1], "--start-timeout-ms");
            i += 2;
        } else if (strncmp(argv[i], "--start-timeout-ms=", 19) == 0) {
            o->start_timeout_ms = parse_wait_ms(argv[i] + 19, "--start-timeout-ms");
            i++;
        } else if (strcmp(argv[i], "--shared-cp") == 0) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "--shared-cp needs a class path");
            o->shared_cp = argv[i + 1];
            i += 2;
        } else if (strncmp(argv[i], "--shared-cp=", 12) == 0) {
            o->shared_cp = argv[i] + 12;
            i++;
        } else if (strcmp(argv[i], "--kind") == 0) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "--kind needs a value (task or am)");
            o->kind = parse_kind(argv[i + 1]);
            i += 2;
        } else if (strncmp(argv[i], "--kind=", 7) == 0) {
            o->kind = parse_kind(argv[i] + 7);
            i++;
        } else {
            break;
        }
    }
    return i;
}

/* Heap and -XX: tuning that the running pool JVMs cannot change and that does not change what
   the program prints: accepted and ignored. Options that print (-Xlog, -XshowSettings,
   -XX:+Print...) or change semantics (-Xint, -Xshare:dump) need a new JVM; -Xss goes to the slot. */
static bool is_ignorable_jvm_option(const char *a)
{
    static const char *const sizes[] = { "-Xmx", "-Xms", "-Xmn" };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        if (strncmp(a, sizes[i], 4) == 0 && a[4] != '\0')
            return true;
    if (strncmp(a, "-XX:", 4) == 0)
        return strncmp(a, "-XX:+Print", 10) != 0;
    return strcmp(a, "-server") == 0 || strcmp(a, "-client") == 0;
}

/* -Dname[=value] as "name=value"; NULL for "-D" or "-D=x", which java itself rejects. */
static char *property_of(const char *a)
{
    const char *def = a + 2;
    if (*def == '\0' || *def == '=')
        return NULL;
    return strchr(def, '=') ? xasprintf("%s", def) : xasprintf("%s=", def);
}

/*
 * --add-opens/--add-exports VALUE (or =VALUE) at a[i]: returns how many arguments it takes, 0 if
 * a[i] is neither.  MODULE/PACKAGE=ALL-UNNAMED, which a pool JVM started with it gives every run,
 * goes to the slot to check; any other target (or a malformed value, which java reports) sets
 * o->unsupported.
 */
static int module_option(struct run_opts *o, char **a, int i, int n)
{
    static const char *const names[] = { "--add-opens", "--add-exports" };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        size_t len = strlen(names[k]);
        if (strncmp(a[i], names[k], len) != 0 || (a[i][len] != '\0' && a[i][len] != '='))
            continue;
        bool joined = a[i][len] == '=';
        const char *value = joined ? a[i] + len + 1 : i + 1 < n ? a[i + 1] : NULL;
        const char *slash = value ? strchr(value, '/') : NULL;
        const char *eq = value ? strchr(value, '=') : NULL;
        if (slash == NULL || eq == NULL || slash == value || eq <= slash + 1
            || memchr(slash + 1, '/', (size_t)(eq - slash - 1)) != NULL
            || memchr(value, ',', (size_t)(eq - value)) != NULL)
            o->unsupported = xasprintf("option %s %s is not MODULE/PACKAGE=TARGET; only a new JVM can report that",
                                       names[k], value ? value : "(no value)");
        else if (strcmp(eq + 1, "ALL-UNNAMED") != 0)
            o->unsupported = xasprintf("option %s %s names a target other than ALL-UNNAMED, which only a new JVM"
                                       " can honour", names[k], value);
        else if (k == 0)
            o->opens[o->n_opens++] = xasprintf("%.*s", (int)(eq - value), value);
        else
            o->exports[o->n_exports++] = xasprintf("%.*s", (int)(eq - value), value);
        return joined || value == NULL ? 1 : 2;
    }
    return 0;
}

/* Parses java's options up to the main class, like the java launcher does. */
static void parse_java_options(struct run_opts *o)
{
    char **a = o->java_args;
    int n = o->n_java_args, i = 0, taken;
    char *prop;
    o->props = xrealloc(NULL, sizeof(char *) * (size_t)(n + 1));
    o->ignored = xrealloc(NULL, sizeof(char *) * (size_t)(n + 1));
    o->opens = xrealloc(NULL, sizeof(char *) * (size_t)(n + 1));
    o->exports = xrealloc(NULL, sizeof(char *) * (size_t)(n + 1));
    for (; i < n && (a[i][0] == '-' || a[i][0] == '@'); i++) {
        if (strcmp(a[i], "-cp") == 0 || strcmp(a[i], "-classpath") == 0
            || strcmp(a[i], "--class-path") == 0) {
            if (i + 1 >= n)
                die(EXIT_USAGE, "%s needs a class path", a[i]);
            o->cp = a[++i];
        } else if (strncmp(a[i], "--class-path=", 13) == 0) {
            o->cp = a[i] + 13;
        } else if (strncmp(a[i], "-D", 2) == 0 && (prop = property_of(a[i])) != NULL) {
            o->props[o->n_props++] = prop;
        } else if (strncmp(a[i], "-Xss", 4) == 0 && a[i][4] != '\0') {
            o->stack_size = a[i] + 4;
        } else if (is_ignorable_jvm_option(a[i])) {
            o->ignored[o->n_ignored++] = a[i];
        } else if ((taken = module_option(o, a, i, n)) > 0) {
            if (o->unsupported)
                return;
            i += taken - 1;
        } else {
            /* Includes @argfiles, which the launcher expands into more options. */
            o->unsupported = xasprintf("option %s is not supported by the pool", a[i]);
            return;
        }
    }
    if (i >= n)
        die(EXIT_USAGE, "no main class given");
    o->main_class = a[i];
    o->args = a + i + 1;
    o->n_args = n - i - 1;
}

static void parse_run_args(struct run_opts *o, int argc, char **argv)
{
    *o = (struct run_opts){ .wait_ms = DEFAULT_WAIT_MS, .start_timeout_ms = -1, .kind = WIRE_KIND_TASK };
    const char *env_wait = getenv("JVMREUSE_WAIT_MS");
    if (env_wait != NULL && *env_wait != '\0')
        o->wait_ms = parse_wait_ms(env_wait, "JVMREUSE_WAIT_MS");
    const char *env_start = getenv("JVMREUSE_START_TIMEOUT_MS");
    if (env_start != NULL && *env_start != '\0')
        o->start_timeout_ms = parse_wait_ms(env_start, "JVMREUSE_START_TIMEOUT_MS");
    int skip = parse_client_options(o, argc, argv);
    if (o->start_timeout_ms < 0)
        o->start_timeout_ms = o->wait_ms + START_TIMEOUT_EXTRA_MS;
    o->java_args = argv + skip;
    o->n_java_args = argc - skip;
    parse_java_options(o);
    if (o->shared_cp == NULL)
        o->shared_cp = getenv("JVMREUSE_SHARED_CP");
}

/* ----------------------------------------------------------------- signals */

/* Signals a user sends to `java` (SIGQUIT: a thread dump); during a run they are passed
   on to the program. */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define N_FORWARDED (sizeof forwarded / sizeof forwarded[0])

/* Signals that would end us without being forwarded: our FIFO directory is removed first. */
static const int fatal[] = { SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGPWR };
#define N_FATAL (sizeof fatal / sizeof fatal[0])

static struct sigaction saved_action[N_FORWARDED], saved_fatal[N_FATAL], saved_sigpipe;
static bool caught[N_FORWARDED], caught_fatal[N_FATAL];
static int signal_pipe[2] = { -1, -1 };

static void remove_fifo_dir(void);

/* unlink and rmdir are async-signal-safe; then the signal does what it would have done. */
static void on_fatal_signal(int sig)
{
    remove_fifo_dir();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Self-pipe: the handler only records the signal; the poll loop sends the frame. */
static void on_signal(int sig)
{
    int saved_errno = errno;
    unsigned char b = (unsigned char)sig;
    if (write(signal_pipe[1], &b, 1) < 0) {
        /* pipe full: plenty of signals are already waiting to be forwarded */
    }
    errno = saved_errno;
}

static void install_signals(void)
{
    if (pipe2(signal_pipe, O_NONBLOCK | O_CLOEXEC) < 0)
        die(1, "cannot create a pipe: %s", strerror(errno));
    struct sigaction sa = { .sa_handler = on_signal };  /* no SA_RESTART: poll must wake */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_FORWARDED; i++) {
        sigaction(forwarded[i], NULL, &saved_action[i]);
        /* A signal ignored by our parent (nohup, `&` without job control) stays ignored,
           as the JVM would leave it. */
        caught[i] = saved_action[i].sa_handler != SIG_IGN;
        if (caught[i])
            sigaction(forwarded[i], &sa, NULL);
    }
    struct sigaction cleanup = { .sa_handler = on_fatal_signal };
    sigemptyset(&cleanup.sa_mask);
    for (size_t i = 0; i < N_FATAL; i++) {
        sigaction(fatal[i], NULL, &saved_fatal[i]);
        caught_fatal[i] = saved_fatal[i].sa_handler == SIG_DFL;
        if (caught_fatal[i])
            sigaction(fatal[i], &cleanup, NULL);
    }
    /* A reader of our stdout that went away must not kill us: the program goes on,
       like java's System.out, which only sets its error flag. */
    struct sigaction ign = { .sa_handler = SIG_IGN };
    sigaction(SIGPIPE, &ign, &saved_sigpipe);
}

/* Gives the exec'd JVM the dispositions we inherited (SIG_IGN survives exec). */
static void restore_signals(void)
{
    if (signal_pipe[0] < 0)
        return;
    for (size_t i = 0; i < N_FORWARDED; i++)
        if (caught[i])
            sigaction(forwarded[i], &saved_action[i], NULL);
    for (size_t i = 0; i < N_FATAL; i++)
        if (caught_fatal[i])
            sigaction(fatal[i], &saved_fatal[i], NULL);
    sigaction(SIGPIPE, &saved_sigpipe, NULL);
}

/* A terminating signal that arrived before we fell back ends us now, as it would have
   ended the JVM; SIGQUIT (a thread dump for java) is dropped. */
static void raise_pending_signals(void)
{
    unsigned char b;
    if (signal_pipe[0] < 0)
        return;
    while (read(signal_pipe[0], &b, 1) == 1)
        if (b != SIGQUIT)
            raise(b);
}

/* Sends one `signal` frame per signal received.  A failed send is not reported here:
   a lost connection shows up as end of file on the socket. */
static void forward_signals(int sock)
{
    unsigned char b;
    while (read(signal_pipe[0], &b, 1) == 1) {
        struct msg m;
        char num[8];
        snprintf(num, sizeof num, "%d", b);
        msg_init(&m, WIRE_SIGNAL);
        msg_add(&m, WIRE_SIG, num);
        (void)msg_send(sock, &m);
        free(m.data);
    }
}

/* --------------------------------------------------------------- fallback */

static noreturn void exec_java(const struct run_opts *o)
{
    remove_fifo_dir();
    restore_signals();
    raise_pending_signals();

    char **argv = xrealloc(NULL, sizeof(char *) * (size_t)(o->n_java_args + 2));
    const char *java_home = getenv("JAVA_HOME");
    const char *java = java_home && *java_home ? xasprintf("%s/bin/java", java_home) : "java";
    argv[0] = (char *)java;
    memcpy(argv + 1, o->java_args, sizeof(char *) * (size_t)o->n_java_args);
    argv[o->n_java_args + 1] = NULL;
    if (java_home && *java_home)
        execv(java, argv);
    else
        execvp(java, argv);
    die(errno == ENOENT ? 127 : 126, "cannot start %s: %s", java, strerror(errno));
}

static void catch_up_direct_file(int fd);

static noreturn void fallback(const struct run_opts *o, const char *reason)
{
    if (verbose)
        say("%s; starting a new JVM", reason);
    /* java writes through our offsets: past what a slot (or our message) appended */
    catch_up_direct_file(STDOUT_FILENO);
    catch_up_direct_file(STDERR_FILENO);
    exec_java(o);
}

/* ----------------------------------------------------------- stdio FIFOs */

/*
 * Each of the program's stdin/stdout/stderr is either handed to the slot directly, as
 * /proc/<our pid>/fd/N, or relayed through a FIFO. The slot runs as our user and can open
 * that link, which for a pipe, a terminal or a device is the very object we hold (Java
 * cannot receive descriptors over a socket), so the program writes into our stdout pipe or
 * terminal itself: no copying, and output interleaves exactly as under java. A FIFO relay
 * remains where reopening is not the same thing: sockets, a regular-file stdin not at its
 * start (the reopened file would start at offset 0), a regular-file stdout written
 * somewhere but at its end, and a terminal stdin (we must not read it in the background).
 */
static struct {
    char *dir;
    char *out, *err, *in;   /* FIFO paths, NULL when not created */
    char *direct[3];        /* /proc/<pid>/fd/N for directly handed streams, else NULL */
    char *direct_key[3];    /* "st_dev:st_ino" of each of those descriptors */
} fifos;

/*
 * The key goes with the path: the slot checks that the path led it to this very file, since to
 * a slot outside our PID namespace (we run in a container) /proc/<our pid> is another process.
 */
static char *direct_path(int fd, char **key)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return NULL;
    bool same = S_ISFIFO(st.st_mode) || (S_ISCHR(st.st_mode) && (fd != STDIN_FILENO || !isatty(fd)));
    if (S_ISREG(st.st_mode)) {
        off_t at = lseek(fd, 0, SEEK_CUR);
        int flags = fcntl(fd, F_GETFL);
        same = fd == STDIN_FILENO ? at == 0
                                  : at == st.st_size || (flags >= 0 && (flags & O_APPEND));
    }
    if (!same)
        return NULL;
    *key = xasprintf("%ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
    return xasprintf("/proc/%d/fd/%d", (int)getpid(), fd);
}

static bool is_direct_regular_file(int fd)
{
    struct stat st;
    return fifos.direct[fd] != NULL && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * The slot writes a regular file we handed it through its own open file description, with
 * O_APPEND, so our offset (shared with our parent, as java's would be) still points before
 * the program's output. While the run goes, our messages go through an O_APPEND description
 * of our own (a seek-then-write could land in the middle of the program's output); when it
 * ends, moving the shared offset to the end puts our parent's next writes after the
 * program's output, as under java.
 */
static void append_messages_while_running(void)
{
    if (is_direct_regular_file(STDERR_FILENO)) {
        int fd = open("/proc/self/fd/2", O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd >= 0)
            message_fd = fd;
    }
}

static void catch_up_direct_file(int fd)
{
    if (is_direct_regular_file(fd))
        lseek(fd, 0, SEEK_END);
}

/* Also called from a signal handler: system calls only. */
static void remove_fifo_dir(void)
{
    char *dir = fifos.dir;
    if (dir == NULL)
        return;
    fifos.dir = NULL;
    char *paths[] = { fifos.out, fifos.err, fifos.in };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (paths[i] != NULL)
            unlink(paths[i]);
    rmdir(dir);
}

/*
 * A client killed by SIGKILL cannot remove its FIFO directory, so each client sweeps the
 * socket directory for c<pid>-XXXXXX directories of ours whose client is gone.  Only those
 * older than STALE_FIFO_DIR_S: a client in another PID namespace looks gone but may be
 * alive, and by then its slot has long opened the FIFOs (it opens them only before
 * `started`), so removing the names harms nobody.
 */
static void sweep_stale_fifo_dirs(const char *socket_path)
{
    char *copy = xasprintf("%s", socket_path);
    DIR *d = opendir(dirname(copy));
    free(copy);
    if (d == NULL)
        return;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int pid, end = 0;
        struct stat st;
        if (sscanf(e->d_name, "c%d-%*6[A-Za-z0-9]%n", &pid, &end) != 1 || end == 0 || e->d_name[end] != '\0'
            || pid <= 0 || (kill(pid, 0) == 0 || errno != ESRCH)
            || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode)
            || st.st_uid != geteuid() || now - st.st_mtime < STALE_FIFO_DIR_S)
            continue;
        int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0)
            continue;
        static const char *const names[] = { "out", "err", "in" };
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            unlinkat(sub, names[i], 0);
        close(sub);
        unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

static char *make_fifo(const char *name)
{
    char *path = xasprintf("%s/%s", fifos.dir, name);
    if (mkfifo(path, 0600) < 0) {
        int e = errno;
        free(path);
        errno = e;
        return NULL;
    }
    return path;
}

/* Decides which of our stdio streams the slot opens directly; stdin only if it is passed on. */
static void choose_direct_streams(bool pass_stdin)
{
    for (int fd = 0; fd < 3; fd++)
        fifos.direct[fd] = fd == STDIN_FILENO && !pass_stdin ? NULL : direct_path(fd, &fifos.direct_key[fd]);
    append_messages_while_running();
}

/*
 * Creates <socket dir>/c<pid>-XXXXXX with the FIFOs of the streams that are relayed (none when
 * all go direct).  The socket's directory was verified to be ours and private; mkdtemp makes a
 * new directory (mode 0700) and mkfifo fails on any name that already exists.  Returns NULL on
 * success, else why it failed.
 */
static char *make_fifo_dir(const char *socket_path, bool pass_stdin)
{
    bool need_out = fifos.direct[STDOUT_FILENO] == NULL, need_err = fifos.direct[STDERR_FILENO] == NULL;
    bool need_in = pass_stdin && fifos.direct[STDIN_FILENO] == NULL;
    if (!need_out && !need_err && !need_in)
        return NULL;
    char *socket_copy = xasprintf("%s", socket_path);
    char *tmpl = xasprintf("%s/c%d-XXXXXX", dirname(socket_copy), (int)getpid());
    free(socket_copy);
    if (mkdtemp(tmpl) == NULL)
        return xasprintf("cannot create a directory like %s: %s", tmpl, strerror(errno));
    fifos.dir = tmpl;
    if ((need_out && (fifos.out = make_fifo("out")) == NULL) || (need_err && (fifos.err = make_fifo("err")) == NULL)
        || (need_in && (fifos.in = make_fifo("in")) == NULL))
        return xasprintf("cannot create a FIFO in %s: %s", tmpl, strerror(errno));
    return NULL;
}

/* Opening a FIFO O_RDWR (Linux) never blocks and keeps a writer of our own, so reads
   see EAGAIN, never end of file, however often the slot opens and closes its end. */
static int open_fifo(const char *path)
{
    struct stat st;
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        die(1, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, &st) < 0 || !S_ISFIFO(st.st_mode) || st.st_uid != geteuid())
        die(1, "%s is not the FIFO we made", path);
    return fd;
}

static bool stdin_is_dev_null(void)
{
    struct stat in, null;
    return fstat(STDIN_FILENO, &in) == 0 && S_ISCHR(in.st_mode)
        && stat("/dev/null", &null) == 0 && in.st_rdev == null.st_rdev;
}

/* ------------------------------------------------------------------ relay */

/* Copies src to dst through buf; at most one of them is polled at a time, so a slow
   reader of our stdout holds the program back instead of filling our memory. */
struct relay {
    int src, dst;       /* dst is -1 once closed */
    bool eof;           /* src ended (only stdin can) */
    bool dst_failed;    /* dst is gone: further data is discarded */
    size_t off, len;
    char buf[RELAY_BUF];
};

static struct relay relay_out, relay_err, relay_in;

static void relay_read(struct relay *r)
{
    ssize_t n = read(r->src, r->buf, sizeof r->buf);
    if (n > 0) {
        r->off = 0;
        r->len = r->dst_failed ? 0 : (size_t)n;
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        r->eof = true;
    }
}

/* One write: dst may be a blocking pipe, and a signal must not wait for its reader. */
static void relay_write(struct relay *r)
{
    ssize_t n = write(r->dst, r->buf + r->off, r->len - r->off);
    if (n >= 0) {
        r->off += (size_t)n;
    } else if (errno != EAGAIN && errno != EINTR) {
        r->dst_failed = true;
        r->off = r->len;
    }
    if (r->off == r->len)
        r->off = r->len = 0;
}

static void relay_arm(const struct relay *r, struct pollfd *p, bool may_read)
{
    p->revents = 0;
    if (r->len > 0) {
        p->fd = r->dst;
        p->events = POLLOUT;
    } else if (may_read && !r->eof && r->src >= 0 && r->dst >= 0) {
        p->fd = r->src;
        p->events = POLLIN;
    } else {
        p->fd = -1;     /* poll ignores it */
    }
}

static void relay_service(struct relay *r, const struct pollfd *p)
{
    if (p->fd < 0 || p->revents == 0)
        return;
    if (r->len > 0)
        relay_write(r);
    else
        relay_read(r);
}

/* After `exit` the slot has closed its ends, so what is left in the FIFO is all there is:
   read until EAGAIN and write it all out. */
static void relay_drain(struct relay *r)
{
    if (r->src < 0)
        return;
    do {
        while (r->len > 0) {
            struct pollfd p = { .fd = r->dst, .events = POLLOUT };
            poll(&p, 1, -1);
            relay_write(r);
        }
        relay_read(r);
    } while (r->len > 0);
}

/*
 * Our stdin goes to the `in` FIFO.  We keep the only write end, so closing it after our
 * stdin's end of file makes the slot's reader see the buffered bytes and then end of file.
 * We read stdin only after `started`, by which time the slot has opened its read end
 * (O_RDONLY|O_NONBLOCK, then blocking again): were it not open, the buffered bytes would
 * be lost with the pipe when we close the last end, and a later blocking open would hang.
 * Reading only after `started` also keeps stdin intact for a JVM we may still fall back to.
 */
static void finish_stdin(void)
{
    if (relay_in.eof && relay_in.len == 0 && relay_in.dst >= 0) {
        close(relay_in.dst);
        relay_in.dst = -1;
    }
}

/* A background job reading its terminal is stopped by SIGTTIN; java's program would be
   stopped only if it read.  So we leave the terminal alone while in the background and
   look again every BACKGROUND_RECHECK_MS (the job may be brought to the foreground). */
static bool stdin_readable_now(void)
{
    if (!isatty(STDIN_FILENO))
        return true;
    pid_t fg = tcgetpgrp(STDIN_FILENO);
    return fg < 0 || fg == getpgrp();
}

/* ------------------------------------------------------------------- run */

/*
 * The start-up settings a new JVM would take from this process (startup_settings.h): the umask,
 * the resource limits, and the C library's locale for this environment, found as the JVM finds
 * it (setlocale(LC_ALL, ""): a locale that is not installed leaves "C"), from which it derives
 * its default locale and encodings.  The slot applies them for the run or refuses it.
 */
static void add_startup_settings(struct msg *m, const struct run_opts *o)
{
    char text[96];
    if (o->stack_size != NULL)
        msg_add(m, WIRE_XSS, o->stack_size);
    mode_t mask = umask(0);
    umask(mask);
    snprintf(text, sizeof text, "%04o", (unsigned)mask);
    msg_add(m, WIRE_UMASK, text);
    for (size_t i = 0; i < N_STARTUP_RLIMITS; i++) {
        struct rlimit limit;
        if (getrlimit(startup_rlimits[i].resource, &limit) != 0)
            continue;
        char soft[24], hard[24];
        snprintf(soft, sizeof soft, "%llu", (unsigned long long)limit.rlim_cur);
        snprintf(hard, sizeof hard, "%llu", (unsigned long long)limit.rlim_max);
        snprintf(text, sizeof text, "%s:%s:%s", startup_rlimits[i].name,
                 limit.rlim_cur == RLIM_INFINITY ? "unlimited" : soft, limit.rlim_max == RLIM_INFINITY ? "unlimited" : hard);
        msg_add(m, WIRE_RLIMIT, text);
    }
    setlocale(LC_ALL, "");
    msg_add(m, WIRE_LC_CTYPE, setlocale(LC_CTYPE, NULL));
    msg_add(m, WIRE_LC_MESSAGES, setlocale(LC_MESSAGES, NULL));
    msg_add(m, WIRE_CODESET, nl_langinfo(CODESET));
    setlocale(LC_ALL, "C"); /* our own messages stay as they were */
}

static void build_run_request(struct msg *m, const struct run_opts *o, const char *cp,
                              const char *shared_cp, const char *cwd, char **env)
{
    char wait[24];
    msg_init(m, WIRE_RUN);
    msg_add(m, WIRE_MAIN, o->main_class);
    msg_add(m, WIRE_CP, cp);
    if (shared_cp != NULL)
        msg_add(m, WIRE_SHARED_CP, shared_cp);
    for (int i = 0; i < o->n_args; i++)
        msg_add(m, WIRE_ARG, o->args[i]);
    for (int i = 0; i < o->n_props; i++)
        msg_add(m, WIRE_PROP, o->props[i]);
    for (char **e = env; *e != NULL; e++) {
        const char *eq = strchr(*e, '=');
        if (eq != NULL && eq != *e)     /* like System.getenv, skip malformed entries */
            msg_add(m, WIRE_ENV, *e);
    }
    msg_add(m, WIRE_CWD, cwd);
    msg_add(m, WIRE_STDIN, fifos.in ? fifos.in : fifos.direct[STDIN_FILENO] ? fifos.direct[STDIN_FILENO] : "/dev/null");
    msg_add(m, WIRE_STDOUT, fifos.out ? fifos.out : fifos.direct[STDOUT_FILENO]);
    msg_add(m, WIRE_STDERR, fifos.err ? fifos.err : fifos.direct[STDERR_FILENO]);
    static const char *const keys[] = { WIRE_STDIN_KEY, WIRE_STDOUT_KEY, WIRE_STDERR_KEY };
    for (int fd = 0; fd < 3; fd++)
        if (fifos.direct[fd] != NULL)
            msg_add(m, keys[fd], fifos.direct_key[fd]);
    snprintf(wait, sizeof wait, "%ld", o->wait_ms);
    msg_add(m, WIRE_WAIT_MS, wait);
    for (int i = 0; i < o->n_ignored; i++)
        msg_add(m, WIRE_IGNORED_OPT, o->ignored[i]);
    for (int i = 0; i < o->n_opens; i++)
        msg_add(m, WIRE_ADD_OPENS, o->opens[i]);
    for (int i = 0; i < o->n_exports; i++)
        msg_add(m, WIRE_ADD_EXPORTS, o->exports[i]);
    msg_add(m, WIRE_KIND, o->kind);
    add_startup_settings(m, o);
}

/* The class path with relative entries made absolute against cwd; an empty entry means
   the working directory, as for java.  A wildcard entry (lib/ followed by
   a star) stays a wildcard, made absolute like the others. */
static char *absolute_class_path(const char *cp, const char *cwd)
{
    size_t entries = 1, cwd_len = strlen(cwd);
    for (const char *p = cp; *p; p++)
        entries += *p == ':';
    char *out = xrealloc(NULL, strlen(cp) + entries * (cwd_len + 2) + 1);
    size_t n = 0;
    for (const char *p = cp;; p++) {
        const char *end = strchrnul(p, ':');
        size_t len = (size_t)(end - p);
        if (n > 0)
            out[n++] = ':';
        if (len == 0 || (len == 1 && *p == '.')) {
            memcpy(out + n, cwd, cwd_len);
            n += cwd_len;
        } else {
            if (*p != '/') {
                memcpy(out + n, cwd, cwd_len);
                n += cwd_len;
                out[n++] = '/';
            }
            memcpy(out + n, p, len);
            n += len;
        }
        if (*end == '\0')
            break;
        p = end;
    }
    out[n] = '\0';
    return out;
}

static noreturn void finish_run(const struct frame *f)
{
    const char *s = frame_get(f, WIRE_CODE, "");
    char *end;
    errno = 0;
    long code = strtol(s, &end, 10);
    bool bad = *s == '\0' || *end != '\0' || errno != 0 || code < INT_MIN || code > INT_MAX;
    relay_drain(&relay_out);
    relay_drain(&relay_err);
    catch_up_direct_file(STDOUT_FILENO);
    catch_up_direct_file(STDERR_FILENO);
    const char *message = frame_get(f, WIRE_MESSAGE, NULL);
    if (message != NULL)
        say("%s", message);
    if (bad)
        die(1, "bad exit code '%s' from the pool", s);
    exit((int)code);
}

/* Acts on one message from the manager during a run; returns if the run goes on. */
static void handle_run_reply(const struct frame *f, const struct run_opts *o, bool *started)
{
    if (frame_is(f, WIRE_QUEUED)) {
        if (verbose)
            say("all slots are busy; queued at position %s", frame_get(f, WIRE_POSITION, "?"));
    } else if (frame_is(f, WIRE_STARTED)) {
        *started = true;
        if (verbose)
            say("running in slot %s (rank %s, pid %s)", frame_get(f, WIRE_SLOT, "?"),
                frame_get(f, WIRE_RANK, "?"), frame_get(f, WIRE_PID, "?"));
    } else if (frame_is(f, WIRE_EXIT)) {
        finish_run(f);
    } else if (frame_is(f, WIRE_FALLBACK) && !*started) {
        fallback(o, frame_get(f, WIRE_REASON, "the pool cannot take the run"));
    } else if (frame_is(f, WIRE_ERROR)) {
        die(EXIT_USAGE, "pool refused the request: %s", frame_get(f, WIRE_MESSAGE, "(no message)"));
    } else {
        die(1, "unexpected reply '%s' from the pool", f->data);
    }
}

enum { P_SOCK, P_SIGNAL, P_OUT, P_ERR, P_IN, P_COUNT };

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The connection ended (or broke) without an `exit`.  Before `started` nothing ran, so a new
   JVM runs the program; after it, the program's outcome is unknown and we must not guess. */
static noreturn void connection_lost(int sock, const struct run_opts *o, bool started, const char *why)
{
    if (!started) {
        close(sock);
        fallback(o, xasprintf("the pool closed the connection before the run started (%s)", why));
    }
    relay_drain(&relay_out);
    relay_drain(&relay_err);
    catch_up_direct_file(STDOUT_FILENO);
    catch_up_direct_file(STDERR_FILENO);
    die(1, "lost the connection to the pool during the run (%s): its manager ended or failed; "
           "the program's outcome is unknown", why);
}

/* The start timeout passed: asks the pool to cancel the run rather than closing, since its slot
   may be starting it just now and it must not run there and in a new JVM too. The pool answers
   `fallback` (the run never starts) or `started` (it did: it goes on). */
static bool send_cancel(int sock)
{
    struct msg m;
    msg_init(&m, WIRE_CANCEL);
    int r = msg_send(sock, &m);
    free(m.data);
    return r == 0;
}

static noreturn void run_loop(int sock, const struct run_opts *o)
{
    bool started = false;
    bool cancelling = false;
    long start_deadline = now_ms() + o->start_timeout_ms;
    struct pollfd p[P_COUNT] = {
        [P_SOCK] = { .fd = sock, .events = POLLIN },
        [P_SIGNAL] = { .fd = signal_pipe[0], .events = POLLIN },
    };
    for (;;) {
        bool stdin_now = started && stdin_readable_now();
        relay_arm(&relay_out, &p[P_OUT], true);
        relay_arm(&relay_err, &p[P_ERR], true);
        relay_arm(&relay_in, &p[P_IN], stdin_now);
        bool recheck = started && !stdin_now && !relay_in.eof && relay_in.dst >= 0;
        long timeout = recheck ? BACKGROUND_RECHECK_MS : -1;
        if (!started) {
            long left = start_deadline - now_ms();
            if (left <= 0 && !cancelling && send_cancel(sock)) {
                cancelling = true;
                start_deadline = now_ms() + CANCEL_REPLY_MS;
                left = CANCEL_REPLY_MS;
            } else if (left <= 0) {
                /* No answer: the pool is broken. Closing ends the run on the manager's side. */
                close(sock);
                fallback(o, xasprintf("the pool did not start the run within %ld ms", o->start_timeout_ms));
            }
            timeout = left;
        }
        if (poll(p, P_COUNT, (int)(timeout > INT_MAX ? INT_MAX : timeout)) < 0) {
            if (errno == EINTR)
                continue;
            die(1, "poll: %s", strerror(errno));
        }
        if (p[P_SIGNAL].revents)
            forward_signals(sock);
        relay_service(&relay_out, &p[P_OUT]);
        relay_service(&relay_err, &p[P_ERR]);
        relay_service(&relay_in, &p[P_IN]);
        finish_stdin();
        if (p[P_SOCK].revents) {
            struct frame f;
            const char *problem;
            int r = read_frame(sock, &f, &problem);
            if (r == FRAME_EOF)
                connection_lost(sock, o, started, "end of file");
            if (r == FRAME_BAD)
                connection_lost(sock, o, started, problem);
            if (cancelling && frame_is(&f, WIRE_FALLBACK))
                fallback(o, xasprintf("the pool did not start the run within %ld ms (%s)", o->start_timeout_ms,
                                      frame_get(&f, WIRE_REASON, "cancelled")));
            handle_run_reply(&f, o, &started);
            free(f.data);
        }
    }
}

static void open_relays(void)
{
    relay_out.src = fifos.out ? open_fifo(fifos.out) : -1;
    relay_out.dst = STDOUT_FILENO;
    relay_err.src = fifos.err ? open_fifo(fifos.err) : -1;
    relay_err.dst = STDERR_FILENO;
    relay_in.src = STDIN_FILENO;
    relay_in.dst = fifos.in ? open_fifo(fifos.in) : -1;
}

static noreturn void cmd_run(const char *socket_path, int argc, char **argv)
{
    struct run_opts o;
    parse_run_args(&o, argc, argv);
    if (o.unsupported)
        fallback(&o, o.unsupported);
    /* A new JVM would apply these; a running slot cannot. */
    static const char *const launcher_vars[] = { "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS" };
    for (size_t i = 0; i < sizeof launcher_vars / sizeof *launcher_vars; i++) {
        const char *v = getenv(launcher_vars[i]);
        if (v != NULL && *v != '\0')
            fallback(&o, xasprintf("%s is set, and only a new JVM applies it", launcher_vars[i]));
    }
    for (int i = 0; verbose && i < o.n_ignored; i++)
        say("ignoring %s: the pool's JVMs were started with their own options", o.ignored[i]);

    char *cwd = getcwd(NULL, 0);
    if (cwd == NULL)
        fallback(&o, xasprintf("cannot determine the working directory: %s", strerror(errno)));
    const char *given_cp = o.cp ? o.cp : getenv("CLASSPATH");
    char *cp = absolute_class_path(given_cp && *given_cp ? given_cp : ".", cwd);
    char *shared_cp = o.shared_cp && *o.shared_cp ? absolute_class_path(o.shared_cp, cwd) : NULL;

    char *problem;
    bool loud;
    int sock = connect_pool(socket_path, &problem, &loud);
    if (sock < 0) {
        if (!loud)
            fallback(&o, problem);
        say("%s; starting a new JVM", problem);    /* said even without -v: a misconfiguration */
        exec_java(&o);
    }

    install_signals();
    atexit(remove_fifo_dir);
    sweep_stale_fifo_dirs(socket_path);
    bool pass_stdin = !stdin_is_dev_null();
    choose_direct_streams(pass_stdin);
    char *fifo_problem = make_fifo_dir(socket_path, pass_stdin);
    if (fifo_problem != NULL)
        fallback(&o, fifo_problem);
    open_relays();

    struct msg m;
    build_run_request(&m, &o, cp, shared_cp, cwd, environ);
    if (m.too_big)
        fallback(&o, "request too large for the pool");
    /* A failed send is not final: the manager may have replied `error` before closing,
       and the loop reads that reply (or the end of file). */
    (void)msg_send(sock, &m);
    free(m.data);
    run_loop(sock, &o);
}

/* ------------------------------------------------------------------- main */

/* A closed fd 0, 1 or 2 would be reused by our socket or a FIFO, and program output
   would go there; /dev/null takes its place (reads end at once, writes vanish). */
static void occupy_std_fds(void)
{
    int fd;
    do {
        fd = open("/dev/null", O_RDWR);
    } while (fd >= 0 && fd <= STDERR_FILENO);
    if (fd > STDERR_FILENO)
        close(fd);
}

int main(int argc, char **argv)
{
    occupy_std_fds();
    const char *v = getenv("JVMREUSE_VERBOSE");
    verbose = v != NULL && strcmp(v, "1") == 0;
    char *socket_path = socket_path_from_env();
    int i = 1;
    if (i < argc && strcmp(argv[i], "--socket") == 0) {
        if (i + 1 >= argc)
            die(EXIT_USAGE, "--socket needs a path");
        socket_path = argv[i + 1];
        i += 2;
    } else if (i < argc && strncmp(argv[i], "--socket=", 9) == 0) {
        socket_path = argv[i++] + 9;
    }
    if (i >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[i++];
    if (strcmp(cmd, WIRE_RUN) == 0)
        cmd_run(socket_path, argc - i, argv + i);
    for (int k = i - 1; k < argc; k++) {
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[k], "--version") == 0) {
            puts("jvmreuse " JVMREUSE_VERSION);
            return 0;
        }
    }
    bool now = strcmp(cmd, WIRE_STOP) == 0 && i < argc && strcmp(argv[i], "--now") == 0;
    bool json = strcmp(cmd, WIRE_STATUS) == 0 && i < argc && strcmp(argv[i], "--json") == 0;
    if (now || json)
        i++;
    if (i < argc)
        die(EXIT_USAGE, "unexpected argument '%s' (see jvmreuse --help)", argv[i]);
    if (strcmp(cmd, WIRE_STATUS) == 0 || strcmp(cmd, WIRE_DRAIN) == 0 || strcmp(cmd, WIRE_STOP) == 0)
        cmd_control(socket_path, cmd, now, json);
    say("unknown command '%s'", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
