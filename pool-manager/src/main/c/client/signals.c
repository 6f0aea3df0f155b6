/*
 * Signals during a run: those a user sends to `java` are passed on to the program as `signal`
 * frames; those that would end us remove our FIFO directory first; a new JVM gets back the
 * dispositions we inherited.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../control_wire.h"
#include "say.h"
#include "signals.h"
#include "streams.h"
#include "wire.h"

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

void install_signals(void)
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

/* Readable when a signal waits to be forwarded (forward_signals). */
int signal_fd(void)
{
    return signal_pipe[0];
}

/* Gives the exec'd JVM the dispositions we inherited (SIG_IGN survives exec). */
void restore_signals(void)
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
void raise_pending_signals(void)
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
void forward_signals(int sock)
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
