/*
 * The client's commands, which main dispatches to: `run` (run.c) and `status`, `drain` and
 * `stop` (control.c).  Each ends the process.
 */
#ifndef JVMREUSE_CLIENT_COMMANDS_H
#define JVMREUSE_CLIENT_COMMANDS_H

#include <stdbool.h>
#include <stdnoreturn.h>

noreturn void cmd_run(const char *socket_path, int argc, char **argv);
noreturn void cmd_control(const char *socket_path, const char *type, bool now, bool json);

#endif
