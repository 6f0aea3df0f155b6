/*
 * The client's own messages on stderr ("jvmreuse: ..."), and allocation that cannot fail
 * (out of memory ends the client).
 */
#ifndef JVMREUSE_CLIENT_SAY_H
#define JVMREUSE_CLIENT_SAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdnoreturn.h>

/* -v or JVMREUSE_VERBOSE=1: say where the run goes.  Extern: set by main and the command line,
   read by whatever has something to tell. */
extern bool verbose;

void say(const char *fmt, ...);
noreturn void die(int code, const char *fmt, ...);
void *xrealloc(void *p, size_t n);
char *xasprintf(const char *fmt, ...);

/* Our messages go to fd from now on instead of stderr (see append_messages_while_running). */
void say_through(int fd);

#endif
