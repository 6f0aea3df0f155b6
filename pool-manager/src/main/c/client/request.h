/*
 * The run request: what a slot needs to run the program as a new `java` would, from its java
 * command line to the start-up settings it would take from this process.
 */
#ifndef JVMREUSE_CLIENT_REQUEST_H
#define JVMREUSE_CLIENT_REQUEST_H

#include "cli.h"
#include "wire.h"

void build_run_request(struct msg *m, const struct run_opts *o, const char *cwd, char **env);

#endif
