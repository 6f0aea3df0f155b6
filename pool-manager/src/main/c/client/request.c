/*
 * The run request: what a slot needs to run the program as a new `java` would, from its class
 * path and arguments to the start-up settings it would take from this process.
 */
#define _GNU_SOURCE /* strchrnul */
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
 * its default locale and encodings.  The slot applies them for the run or refuses it.
 */
static void add_startup_settings(struct msg *m, const struct run_opts *o)
{
    char text[96];
    if (o->stack_size != NULL)
        msg_add(m, WIRE_XSS, o->stack_size);
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

void build_run_request(struct msg *m, const struct run_opts *o, const char *cp,
                       const char *shared_cp, const char *cwd, char **env)
{
    char wait[24];
    msg_init(m, WIRE_RUN);
    msg_add(m, WIRE_MAIN, o->main_class);
    msg_add(m, WIRE_CP, cp);
    if (shared_cp != NULL)
        msg_add(m, WIRE_SHARED_CP, shared_cp);
    for (int i = 0; i < o->n_args; i++)
        msg_add(m, WIRE_ARG, o->args[i]);
    for (int i = 0; i < o->n_props; i++)
        msg_add(m, WIRE_PROP, o->props[i]);
    for (char **e = env; *e != NULL; e++) {
        const char *eq = strchr(*e, '=');
        if (eq != NULL && eq != *e)     /* like System.getenv, skip malformed entries */
            msg_add(m, WIRE_ENV, *e);
    }
    msg_add(m, WIRE_CWD, cwd);
    add_stream_fields(m);
    snprintf(wait, sizeof wait, "%ld", o->wait_ms);
    msg_add(m, WIRE_WAIT_MS, wait);
    for (int i = 0; i < o->n_ignored; i++)
        msg_add(m, WIRE_IGNORED_OPT, o->ignored[i]);
    for (int i = 0; i < o->n_opens; i++)
        msg_add(m, WIRE_ADD_OPENS, o->opens[i]);
    for (int i = 0; i < o->n_exports; i++)
        msg_add(m, WIRE_ADD_EXPORTS, o->exports[i]);
    msg_add(m, WIRE_KIND, o->kind);
    add_startup_settings(m, o);
}

/* The class path with relative entries made absolute against cwd; an empty entry means
   the working directory, as for java.  A wildcard entry (lib/ followed by
   a star) stays a wildcard, made absolute like the others. */
char *absolute_class_path(const char *cp, const char *cwd)
{
    size_t entries = 1, cwd_len = strlen(cwd);
    for (const char *p = cp; *p; p++)
        entries += *p == ':';
    char *out = xrealloc(NULL, strlen(cp) + entries * (cwd_len + 2) + 1);
    size_t n = 0;
    for (const char *p = cp;; p++) {
        const char *end = strchrnul(p, ':');
        size_t len = (size_t)(end - p);
        if (n > 0)
            out[n++] = ':';
        if (len == 0 || (len == 1 && *p == '.')) {
            memcpy(out + n, cwd, cwd_len);
            n += cwd_len;
        } else {
            if (*p != '/') {
                memcpy(out + n, cwd, cwd_len);
                n += cwd_len;
                out[n++] = '/';
            }
            memcpy(out + n, p, len);
            n += len;
        }
        if (*end == '\0')
            break;
        p = end;
    }
    out[n] = '\0';
    return out;
}
