/*
 * The run request: what a slot needs to run the program as a new `java` would, from its class
 * path and arguments to the start-up settings it would take from this process.
 */
#ifndef JVMREUSE_CLIENT_REQUEST_H
#define JVMREUSE_CLIENT_REQUEST_H

#include "cli.h"
#include "wire.h"

char *absolute_class_path(const char *cp, const char *cwd);
void build_run_request(struct msg *m, const struct run_opts *o, const char *cp,
                       const char *shared_cp, const char *cwd, char **env);

#endif
