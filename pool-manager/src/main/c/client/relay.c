/*
 * The relays between our stdio and the FIFOs of the streams not handed to the slot directly:
 * the program's stdout/stderr out of their FIFOs, our stdin into its FIFO once the run started.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "relay.h"
#include "say.h"
#include "streams.h"

#define RELAY_BUF (64 * 1024)
#define BACKGROUND_RECHECK_MS 200

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

void open_relays(void)
{
    const char *out = stream_fifo(STDOUT_FILENO), *err = stream_fifo(STDERR_FILENO);
    const char *in = stream_fifo(STDIN_FILENO);
    relay_out.src = out ? open_fifo(out) : -1;
    relay_out.dst = STDOUT_FILENO;
    relay_err.src = err ? open_fifo(err) : -1;
    relay_err.dst = STDERR_FILENO;
    relay_in.src = STDIN_FILENO;
    relay_in.dst = in ? open_fifo(in) : -1;
}

/* Sets p up for the next poll; returns its timeout: -1, or BACKGROUND_RECHECK_MS while stdin
   waits for us to come to the foreground. */
long arm_relays(struct pollfd p[N_RELAYS], bool started)
{
    bool stdin_now = started && stdin_readable_now();
    relay_arm(&relay_out, &p[RELAY_OUT], true);
    relay_arm(&relay_err, &p[RELAY_ERR], true);
    relay_arm(&relay_in, &p[RELAY_IN], stdin_now);
    bool recheck = started && !stdin_now && !relay_in.eof && relay_in.dst >= 0;
    return recheck ? BACKGROUND_RECHECK_MS : -1;
}

/* Moves data for whichever relays poll found ready. */
void service_relays(const struct pollfd p[N_RELAYS])
{
    relay_service(&relay_out, &p[RELAY_OUT]);
    relay_service(&relay_err, &p[RELAY_ERR]);
    relay_service(&relay_in, &p[RELAY_IN]);
    finish_stdin();
}

/* The program ended (or its connection did): writes out what it left in the FIFOs. */
void drain_output_relays(void)
{
    relay_drain(&relay_out);
    relay_drain(&relay_err);
}
