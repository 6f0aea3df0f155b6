/*
 * `jvmreuse run`: asks the pool to run the program, relays its streams and signals while it
 * runs and exits with its exit code; goes to a new JVM whenever the pool cannot take the run
 * before it started.
 */
#define _GNU_SOURCE /* environ */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../control_wire.h"
#include "cli.h"
#include "commands.h"
#include "fallback.h"
#include "relay.h"
#include "request.h"
#include "say.h"
#include "signals.h"
#include "streams.h"
#include "trust.h"
#include "wire.h"

#define CANCEL_REPLY_MS 5000        /* after the start timeout, how long the pool has to answer `cancel` */

static noreturn void finish_run(const struct frame *f)
{
    const char *s = frame_get(f, WIRE_CODE, "");
    char *end;
    errno = 0;
    long code = strtol(s, &end, 10);
    bool bad = *s == '\0' || *end != '\0' || errno != 0 || code < INT_MIN || code > INT_MAX;
    drain_output_relays();
    catch_up_direct_files();
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
        size_t pos = 0;
        for (const char *option; verbose && (option = frame_next(f, WIRE_IGNORED, &pos)) != NULL;)
            say("ignoring %s: the pool's JVMs were started with their own options", option);
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

/* run_loop's poll set: the socket, the signal pipe, then the relays. */
enum { P_SOCK, P_SIGNAL, P_RELAYS, P_COUNT = P_RELAYS + N_RELAYS };

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
    drain_output_relays();
    catch_up_direct_files();
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
        [P_SIGNAL] = { .fd = signal_fd(), .events = POLLIN },
    };
    for (;;) {
        long timeout = arm_relays(&p[P_RELAYS], started);
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
        service_relays(&p[P_RELAYS]);
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

noreturn void cmd_run(const char *socket_path, int argc, char **argv)
{
    struct run_opts o;
    parse_run_args(&o, argc, argv);
    char *cwd = getcwd(NULL, 0);
    if (cwd == NULL)
        fallback(&o, xasprintf("cannot determine the working directory: %s", strerror(errno)));

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
    char *fifo_problem = set_up_streams(socket_path);
    if (fifo_problem != NULL)
        fallback(&o, fifo_problem);
    open_relays();

    struct msg m;
    build_run_request(&m, &o, cwd, environ);
    if (m.too_big)
        fallback(&o, "request too large for the pool");
    /* A failed send is not final: the manager may have replied `error` before closing,
       and the loop reads that reply (or the end of file). */
    (void)msg_send(sock, &m);
    free(m.data);
    run_loop(sock, &o);
}
