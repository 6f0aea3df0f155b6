/*
 * The pool's socket: where it is, and a connection to it only once nobody but us can have put
 * a listener there (docs/protocol.md, its opening).
 */
#ifndef JVMREUSE_CLIENT_TRUST_H
#define JVMREUSE_CLIENT_TRUST_H

#include <stdbool.h>

char *socket_path_from_env(void);
int connect_pool(const char *path, char **problem, bool *loud);

#endif
