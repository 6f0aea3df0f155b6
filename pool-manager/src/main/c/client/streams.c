/*
 * Where the program's stdin/stdout/stderr go: handed to the slot directly as /proc/<pid>/fd/N,
 * or through FIFOs in a directory of ours next to the pool's socket; and the run request's
 * fields that tell the slot which.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../control_wire.h"
#include "say.h"
#include "streams.h"

#define STALE_FIFO_DIR_S 600        /* a dead client's FIFO directory older than this is swept */

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
            say_through(fd);
    }
}

/* When the run ends or we go to a new JVM: our offsets move past the program's output. */
void catch_up_direct_files(void)
{
    for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++)
        if (is_direct_regular_file(fd))
            lseek(fd, 0, SEEK_END);
}

/* Also called from a signal handler: system calls only. */
void remove_fifo_dir(void)
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

static bool stdin_is_dev_null(void)
{
    struct stat in, null;
    return fstat(STDIN_FILENO, &in) == 0 && S_ISCHR(in.st_mode)
        && stat("/dev/null", &null) == 0 && in.st_rdev == null.st_rdev;
}

/* Sets up the program's streams for a run through the pool at socket_path: stdin is passed on
   unless it is /dev/null.  Returns NULL on success, else why it failed. */
char *set_up_streams(const char *socket_path)
{
    sweep_stale_fifo_dirs(socket_path);
    bool pass_stdin = !stdin_is_dev_null();
    choose_direct_streams(pass_stdin);
    return make_fifo_dir(socket_path, pass_stdin);
}

/* The FIFO the stream fd is relayed through, or NULL. */
const char *stream_fifo(int fd)
{
    return fd == STDIN_FILENO ? fifos.in : fd == STDOUT_FILENO ? fifos.out : fifos.err;
}

/* The run request's stdin, stdout and stderr, and the keys of the directly handed ones. */
void add_stream_fields(struct msg *m)
{
    msg_add(m, WIRE_STDIN, fifos.in ? fifos.in : fifos.direct[STDIN_FILENO] ? fifos.direct[STDIN_FILENO] : "/dev/null");
    msg_add(m, WIRE_STDOUT, fifos.out ? fifos.out : fifos.direct[STDOUT_FILENO]);
    msg_add(m, WIRE_STDERR, fifos.err ? fifos.err : fifos.direct[STDERR_FILENO]);
    static const char *const keys[] = { WIRE_STDIN_KEY, WIRE_STDOUT_KEY, WIRE_STDERR_KEY };
    for (int fd = 0; fd < 3; fd++)
        if (fifos.direct[fd] != NULL)
            msg_add(m, keys[fd], fifos.direct_key[fd]);
}
