/*
 * The command line of `jvmreuse run`: the client's own options, then java's options, main class
 * and the program's arguments, parsed as the java launcher parses them.
 */
#ifndef JVMREUSE_CLIENT_CLI_H
#define JVMREUSE_CLIENT_CLI_H

#define EXIT_USAGE 2

struct run_opts {
    char **java_args;       /* java's options, main class and the program's arguments: to the pool, and to `java` on fallback */
    int n_java_args;
    const char *shared_cp;  /* entries a slot may keep loaded across runs (--shared-cp) */
    const char *kind;       /* "task" or "am" (--kind) */
    const char *fallback_note; /* a file that gets the reason when the run goes to a new JVM (--fallback-note), or NULL */
    long wait_ms;
    long start_timeout_ms;  /* -1: wait_ms + START_TIMEOUT_EXTRA_MS */
};

void parse_run_args(struct run_opts *o, int argc, char **argv);

#endif
