/*
 * The client's own messages on stderr ("jvmreuse: ..."), and allocation that cannot fail
 * (out of memory ends the client).
 */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "say.h"

bool verbose;

/* Where our own messages go: stderr, or an O_APPEND copy of it while a slot appends to the
   same regular file (streams.c, append_messages_while_running). */
static int message_fd = STDERR_FILENO;

void say_through(int fd)
{
    message_fd = fd;
}

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

void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
}

noreturn void die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay(fmt, ap);
    va_end(ap);
    exit(code);
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (p == NULL)
        die(1, "out of memory");
    return p;
}

char *xasprintf(const char *fmt, ...)
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
