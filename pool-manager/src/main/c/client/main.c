/*
 * jvmreuse: the command-line client of a node's pool of warm JVMs.  This file: main, usage and
 * the dispatch to the commands; the other files of client/ each do one job of the client.
 *
 *   jvmreuse [--socket PATH] run [-v] [--wait-ms N] [--start-timeout-ms N] [--shared-cp CP] [--kind task|am] [--fallback-note FILE] [java options] -cp CP MAIN [args...]
 *   jvmreuse [--socket PATH] status [--json] | drain | stop [--now]
 *   jvmreuse --help | --version
 *
 * `run` behaves like `java`: the program runs in a pool slot while this process relays
 * its stdin/stdout/stderr through FIFOs and exits with the program's exit code.  When
 * the pool cannot take the run, it execs a normal JVM with the same arguments instead.
 * The protocol is described in docs/protocol.md.
 *
 * Written in C against libc only because it must start in about a millisecond: a JVM
 * (or even a shell wrapper) would eat much of what the pool saves.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../control_wire.h"
#include "cli.h"
#include "commands.h"
#include "say.h"
#include "trust.h"

/* The Maven project version and the git commit, from the Makefile (-D); no date: the build stays reproducible. */
#ifndef JVMREUSE_VERSION
#define JVMREUSE_VERSION "unknown"
#endif

static void usage(FILE *to)
{
    fputs("jvmreuse " JVMREUSE_VERSION ": the client of a node's pool of warm JVMs (JVM Reuse)\n"
          "\n"
          "usage: jvmreuse [--socket PATH] COMMAND\n"
          "       jvmreuse --help | --version\n"
          "\n"
          "commands:\n"
          "  run [-v] [--wait-ms N] [--start-timeout-ms N] [--shared-cp LIBS] [--kind KIND] [--fallback-note FILE] [java options] -cp CLASSPATH MAINCLASS [args...]\n"
          "        run MAINCLASS in a warm JVM of the pool, like `java` would; without a\n"
          "        usable pool, start a normal JVM instead.\n"
          "        -v           tell on stderr where the run goes (or JVMREUSE_VERBOSE=1)\n"
          "        --wait-ms N  wait at most N ms for a free slot (default 30000, or\n"
          "                     JVMREUSE_WAIT_MS), then start a normal JVM\n"
          "        --start-timeout-ms N  start a normal JVM if the pool has not started the\n"
          "                     program within N ms (default: wait-ms + 30000, or\n"
          "                     JVMREUSE_START_TIMEOUT_MS)\n"
          "        --shared-cp LIBS  class path entries (also on -cp) whose classes the slot\n"
          "                     keeps loaded across runs, statics included (or JVMREUSE_SHARED_CP)\n"
          "        --kind KIND  task (default) or am: an application master, which holds its\n"
          "                     slot for a whole job; the pool gives those at most --am-slots\n"
          "                     slots, and tasks queued behind one that waits go first\n"
          "        --fallback-note FILE  when the program goes to a normal JVM, write why to\n"
          "                     FILE first (one line; for the NodeManager, which logs it)\n"
          "        java options: -cp/-classpath/--class-path, -Dname=value; --add-opens and\n"
          "        --add-exports MODULE/PACKAGE=ALL-UNNAMED (also with '='), which the slot checks\n"
          "        its JVM gives (a normal JVM if not); -Xss (the main thread's stack);\n"
          "        -Xmx/-Xms/-Xmn, -XX:... (but -XX:+Print...), -server and -client are ignored\n"
          "        (the pool's JVMs are already running); any other option, or\n"
          "        JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS or _JAVA_OPTIONS in the environment, makes\n"
          "        the run use a normal JVM. The umask, resource limits, time zone, locale and\n"
          "        encodings are the run's, or it uses a normal JVM (docs/protocol.md).\n"
          "  status [--json]     print the pool's state (--json: one line of JSON, for scripts;\n"
          "                      fields in docs/protocol.md)\n"
          "  drain               stop accepting runs; running ones finish\n"
          "  stop [--now]        drain and shut the pool down (--now: end running runs)\n"
          "\n"
          "environment: JVMREUSE_SOCKET (the pool's socket, else /tmp/jvmreuse-<uid>/pool.sock),\n"
          "  JVMREUSE_VERBOSE, JVMREUSE_WAIT_MS, JVMREUSE_START_TIMEOUT_MS, JVMREUSE_SHARED_CP (above);\n"
          "  a normal JVM is $JAVA_HOME/bin/java, else java from PATH.\n"
          "\n"
          "example: jvmreuse run -cp app.jar org.example.Main arg1   (exit status: the program's)\n"
          "         jvmreuse status --json\n",
          to);
}

/* A closed fd 0, 1 or 2 would be reused by our socket or a FIFO, and program output
   would go there; /dev/null takes its place (reads end at once, writes vanish). */
static void occupy_std_fds(void)
{
    int fd;
    do {
        fd = open("/dev/null", O_RDWR);
    } while (fd >= 0 && fd <= STDERR_FILENO);
    if (fd > STDERR_FILENO)
        close(fd);
}

int main(int argc, char **argv)
{
    occupy_std_fds();
    const char *v = getenv("JVMREUSE_VERBOSE");
    verbose = v != NULL && strcmp(v, "1") == 0;
    char *socket_path = socket_path_from_env();
    int i = 1;
    if (i < argc && strcmp(argv[i], "--socket") == 0) {
        if (i + 1 >= argc)
            die(EXIT_USAGE, "--socket needs a path");
        socket_path = argv[i + 1];
        i += 2;
    } else if (i < argc && strncmp(argv[i], "--socket=", 9) == 0) {
        socket_path = argv[i++] + 9;
    }
    if (i >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[i++];
    if (strcmp(cmd, WIRE_RUN) == 0)
        cmd_run(socket_path, argc - i, argv + i);
    for (int k = i - 1; k < argc; k++) {
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[k], "--version") == 0) {
            puts("jvmreuse " JVMREUSE_VERSION);
            return 0;
        }
    }
    bool now = strcmp(cmd, WIRE_STOP) == 0 && i < argc && strcmp(argv[i], "--now") == 0;
    bool json = strcmp(cmd, WIRE_STATUS) == 0 && i < argc && strcmp(argv[i], "--json") == 0;
    if (now || json)
        i++;
    if (i < argc)
        die(EXIT_USAGE, "unexpected argument '%s' (see jvmreuse --help)", argv[i]);
    if (strcmp(cmd, WIRE_STATUS) == 0 || strcmp(cmd, WIRE_DRAIN) == 0 || strcmp(cmd, WIRE_STOP) == 0)
        cmd_control(socket_path, cmd, now, json);
    say("unknown command '%s'", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
