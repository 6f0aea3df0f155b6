/*
 * The run request: what a slot needs to run the program as a new `java` would, from its java
 * command line to the start-up settings it would take from this process.
 */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../control_wire.h"
#include "../startup_settings.h"
#include "request.h"
#include "say.h"
#include "streams.h"

/*
 * The start-up settings a new JVM would take from this process (startup_settings.h): the umask,
 * the resource limits, and the C library's locale for this environment, found as the JVM finds
 * it (setlocale(LC_ALL, ""): a locale that is not installed leaves "C"), from which it derives
 * its default locale and encodings.  The pool admits the run with them or sends it to a new JVM.
 */
static void add_startup_settings(struct msg *m)
{
    char text[96];
    mode_t mask = umask(0);
    umask(mask);
    snprintf(text, sizeof text, "%04o", (unsigned)mask);
    msg_add(m, WIRE_UMASK, text);
    for (size_t i = 0; i < N_STARTUP_RLIMITS; i++) {
        struct rlimit limit;
        if (getrlimit(startup_rlimits[i].resource, &limit) != 0)
            continue;
        char soft[24], hard[24];
        snprintf(soft, sizeof soft, "%llu", (unsigned long long)limit.rlim_cur);
        snprintf(hard, sizeof hard, "%llu", (unsigned long long)limit.rlim_max);
        snprintf(text, sizeof text, "%s:%s:%s", startup_rlimits[i].name,
                 limit.rlim_cur == RLIM_INFINITY ? "unlimited" : soft, limit.rlim_max == RLIM_INFINITY ? "unlimited" : hard);
        msg_add(m, WIRE_RLIMIT, text);
    }
    setlocale(LC_ALL, "");
    msg_add(m, WIRE_LC_CTYPE, setlocale(LC_CTYPE, NULL));
    msg_add(m, WIRE_LC_MESSAGES, setlocale(LC_MESSAGES, NULL));
    msg_add(m, WIRE_CODESET, nl_langinfo(CODESET));
    setlocale(LC_ALL, "C"); /* our own messages stay as they were */
}

void build_run_request(struct msg *m, const struct run_opts *o, const char *cwd, char **env)
{
    char wait[24];
    msg_init(m, WIRE_RUN);
    for (int i = 0; i < o->n_java_args; i++)
        msg_add(m, WIRE_JAVA_ARG, o->java_args[i]);
    if (o->shared_cp != NULL && *o->shared_cp != '\0')
        msg_add(m, WIRE_SHARED_CP, o->shared_cp);
    for (char **e = env; *e != NULL; e++) {
        const char *eq = strchr(*e, '=');
        if (eq != NULL && eq != *e)     /* like System.getenv, skip malformed entries */
            msg_add(m, WIRE_ENV, *e);
    }
    msg_add(m, WIRE_CWD, cwd);
    add_stream_fields(m);
    snprintf(wait, sizeof wait, "%ld", o->wait_ms);
    msg_add(m, WIRE_WAIT_MS, wait);
    msg_add(m, WIRE_KIND, o->kind);
    add_startup_settings(m);
}
