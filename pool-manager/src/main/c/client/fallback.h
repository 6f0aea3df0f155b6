/*
 * Going to a new JVM: exec `java` with the arguments we were given, as if the pool had never
 * been asked.
 */
#ifndef JVMREUSE_CLIENT_FALLBACK_H
#define JVMREUSE_CLIENT_FALLBACK_H

#include <stdnoreturn.h>

#include "cli.h"

noreturn void exec_java(const struct run_opts *o);
noreturn void fallback(const struct run_opts *o, const char *reason);

#endif
