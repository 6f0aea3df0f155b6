/*
 * The command line of `jvmreuse run`: the client's own options, then java's options, main class
 * and the program's arguments, parsed as the java launcher parses them.
 */
#ifndef JVMREUSE_CLIENT_CLI_H
#define JVMREUSE_CLIENT_CLI_H

#define EXIT_USAGE 2

struct run_opts {
    char **java_args;       /* the arguments `java` gets on fallback */
    int n_java_args;
    const char *cp;         /* as given; made absolute in the request */
    const char *main_class;
    char **args;            /* the program's arguments */
    int n_args;
    char **props;           /* "name=value" */
    int n_props;
    char **ignored;         /* JVM options accepted but not applied */
    int n_ignored;
    char **opens;           /* "module/package" of --add-opens ...=ALL-UNNAMED, which the slot checks */
    int n_opens;
    char **exports;         /* the same for --add-exports */
    int n_exports;
    char *unsupported;      /* why only a new JVM can honour the options, for the first such option */
    const char *shared_cp;  /* entries a slot may keep loaded across runs (--shared-cp) */
    const char *kind;       /* "task" or "am" (--kind) */
    const char *stack_size; /* -Xss's value (the last one, as for java), applied to the program's main thread */
    long wait_ms;
    long start_timeout_ms;  /* -1: wait_ms + START_TIMEOUT_EXTRA_MS */
};

void parse_run_args(struct run_opts *o, int argc, char **argv);

#endif
