/*
 * The command line of `jvmreuse run`: the client's own options, then java's options, main class
 * and the program's arguments, which go to the pool as they are (the pool reads them once, as the
 * java launcher does, and decides whether a slot can take them) and to `java` on fallback.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../control_wire.h"
#include "cli.h"
#include "say.h"

#define DEFAULT_WAIT_MS 30000
#define START_TIMEOUT_EXTRA_MS 30000 /* default time before `started`: wait_ms plus this */

static long parse_wait_ms(const char *s, const char *what)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno != 0 || v < 0 || v > INT_MAX)
        die(EXIT_USAGE, "invalid %s '%s': expected milliseconds", what, s);
    return v;
}

static const char *parse_kind(const char *s)
{
    if (strcmp(s, WIRE_KIND_TASK) != 0 && strcmp(s, WIRE_KIND_AM) != 0)
        die(EXIT_USAGE, "invalid --kind '%s': expected task or am", s);
    return s;
}

/* Options of the client itself, between `run` and the java options. Returns how many. */
static int parse_client_options(struct run_opts *o, int argc, char **argv)
{
    int i = 0;
    while (i < argc) {
        if (strcmp(argv[i], "-v") == 0) {
            verbose = true;
            i++;
        } else if (strcmp(argv[i], "--wait-ms") == 0) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "--wait-ms needs a value");
            o->wait_ms = parse_wait_ms(argv[i + 1], "--wait-ms");
            i += 2;
        } else if (strncmp(argv[i], "--wait-ms=", 10) == 0) {
            o->wait_ms = parse_wait_ms(argv[i] + 10, "--wait-ms");
            i++;
        } else if (strcmp(argv[i], "--start-timeout-ms") == 0) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "--start-timeout-ms needs a value");
            o->start_timeout_ms = parse_wait_ms(argv[i + 1], "--start-timeout-ms");
            i += 2;
        } else if (strncmp(argv[i], "--start-timeout-ms=", 19) == 0) {
            o->start_timeout_ms = parse_wait_ms(argv[i] + 19, "--start-timeout-ms");
            i++;
        } else if (strcmp(argv[i], "--shared-cp") == 0) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "--shared-cp needs a class path");
            o->shared_cp = argv[i + 1];
            i += 2;
        } else if (strncmp(argv[i], "--shared-cp=", 12) == 0) {
            o->shared_cp = argv[i] + 12;
            i++;
        } else if (strcmp(argv[i], "--fallback-note") == 0) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "--fallback-note needs a file");
            o->fallback_note = argv[i + 1];
            i += 2;
        } else if (strncmp(argv[i], "--fallback-note=", 16) == 0) {
            o->fallback_note = argv[i] + 16;
            i++;
        } else if (strcmp(argv[i], "--kind") == 0) {
            if (i + 1 >= argc)
                die(EXIT_USAGE, "--kind needs a value (task or am)");
            o->kind = parse_kind(argv[i + 1]);
            i += 2;
        } else if (strncmp(argv[i], "--kind=", 7) == 0) {
            o->kind = parse_kind(argv[i] + 7);
            i++;
        } else {
            break;
        }
    }
    return i;
}

void parse_run_args(struct run_opts *o, int argc, char **argv)
{
    *o = (struct run_opts){ .wait_ms = DEFAULT_WAIT_MS, .start_timeout_ms = -1, .kind = WIRE_KIND_TASK };
    const char *env_wait = getenv("JVMREUSE_WAIT_MS");
    if (env_wait != NULL && *env_wait != '\0')
        o->wait_ms = parse_wait_ms(env_wait, "JVMREUSE_WAIT_MS");
    const char *env_start = getenv("JVMREUSE_START_TIMEOUT_MS");
    if (env_start != NULL && *env_start != '\0')
        o->start_timeout_ms = parse_wait_ms(env_start, "JVMREUSE_START_TIMEOUT_MS");
    int skip = parse_client_options(o, argc, argv);
    if (o->start_timeout_ms < 0)
        o->start_timeout_ms = o->wait_ms + START_TIMEOUT_EXTRA_MS;
    o->java_args = argv + skip;
    o->n_java_args = argc - skip;
    if (o->n_java_args == 0)
        die(EXIT_USAGE, "no main class given");
    if (o->shared_cp == NULL)
        o->shared_cp = getenv("JVMREUSE_SHARED_CP");
}
