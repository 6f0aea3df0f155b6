/*
 * The command line of `jvmreuse run`: the client's own options, then java's options, main class
 * and the program's arguments, parsed as the java launcher parses them.
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

/* Heap and -XX: tuning that the running pool JVMs cannot change and that does not change what
   the program prints: accepted and ignored. Options that print (-Xlog, -XshowSettings,
   -XX:+Print...) or change semantics (-Xint, -Xshare:dump) need a new JVM; -Xss goes to the slot. */
static bool is_ignorable_jvm_option(const char *a)
{
    static const char *const sizes[] = { "-Xmx", "-Xms", "-Xmn" };
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        if (strncmp(a, sizes[i], 4) == 0 && a[4] != '\0')
            return true;
    if (strncmp(a, "-XX:", 4) == 0)
        return strncmp(a, "-XX:+Print", 10) != 0;
    return strcmp(a, "-server") == 0 || strcmp(a, "-client") == 0;
}

/* -Dname[=value] as "name=value"; NULL for "-D" or "-D=x", which java itself rejects. */
static char *property_of(const char *a)
{
    const char *def = a + 2;
    if (*def == '\0' || *def == '=')
        return NULL;
    return strchr(def, '=') ? xasprintf("%s", def) : xasprintf("%s=", def);
}

/*
 * --add-opens/--add-exports VALUE (or =VALUE) at a[i]: returns how many arguments it takes, 0 if
 * a[i] is neither.  MODULE/PACKAGE=ALL-UNNAMED, which a pool JVM started with it gives every run,
 * goes to the slot to check; any other target (or a malformed value, which java reports) sets
 * o->unsupported.
 */
static int module_option(struct run_opts *o, char **a, int i, int n)
{
    static const char *const names[] = { "--add-opens", "--add-exports" };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        size_t len = strlen(names[k]);
        if (strncmp(a[i], names[k], len) != 0 || (a[i][len] != '\0' && a[i][len] != '='))
            continue;
        bool joined = a[i][len] == '=';
        const char *value = joined ? a[i] + len + 1 : i + 1 < n ? a[i + 1] : NULL;
        const char *slash = value ? strchr(value, '/') : NULL;
        const char *eq = value ? strchr(value, '=') : NULL;
        if (slash == NULL || eq == NULL || slash == value || eq <= slash + 1
            || memchr(slash + 1, '/', (size_t)(eq - slash - 1)) != NULL
            || memchr(value, ',', (size_t)(eq - value)) != NULL)
            o->unsupported = xasprintf("option %s %s is not MODULE/PACKAGE=TARGET; only a new JVM can report that",
                                       names[k], value ? value : "(no value)");
        else if (strcmp(eq + 1, "ALL-UNNAMED") != 0)
            o->unsupported = xasprintf("option %s %s names a target other than ALL-UNNAMED, which only a new JVM"
                                       " can honour", names[k], value);
        else if (k == 0)
            o->opens[o->n_opens++] = xasprintf("%.*s", (int)(eq - value), value);
        else
            o->exports[o->n_exports++] = xasprintf("%.*s", (int)(eq - value), value);
        return joined || value == NULL ? 1 : 2;
    }
    return 0;
}

/* Parses java's options up to the main class, like the java launcher does. */
static void parse_java_options(struct run_opts *o)
{
    char **a = o->java_args;
    int n = o->n_java_args, i = 0, taken;
    char *prop;
    o->props = xrealloc(NULL, sizeof(char *) * (size_t)(n + 1));
    o->ignored = xrealloc(NULL, sizeof(char *) * (size_t)(n + 1));
    o->opens = xrealloc(NULL, sizeof(char *) * (size_t)(n + 1));
    o->exports = xrealloc(NULL, sizeof(char *) * (size_t)(n + 1));
    for (; i < n && (a[i][0] == '-' || a[i][0] == '@'); i++) {
        if (strcmp(a[i], "-cp") == 0 || strcmp(a[i], "-classpath") == 0
            || strcmp(a[i], "--class-path") == 0) {
            if (i + 1 >= n)
                die(EXIT_USAGE, "%s needs a class path", a[i]);
            o->cp = a[++i];
        } else if (strncmp(a[i], "--class-path=", 13) == 0) {
            o->cp = a[i] + 13;
        } else if (strncmp(a[i], "-D", 2) == 0 && (prop = property_of(a[i])) != NULL) {
            o->props[o->n_props++] = prop;
        } else if (strncmp(a[i], "-Xss", 4) == 0 && a[i][4] != '\0') {
            o->stack_size = a[i] + 4;
        } else if (is_ignorable_jvm_option(a[i])) {
            o->ignored[o->n_ignored++] = a[i];
        } else if ((taken = module_option(o, a, i, n)) > 0) {
            if (o->unsupported)
                return;
            i += taken - 1;
        } else {
            /* Includes @argfiles, which the launcher expands into more options. */
            o->unsupported = xasprintf("option %s is not supported by the pool", a[i]);
            return;
        }
    }
    if (i >= n)
        die(EXIT_USAGE, "no main class given");
    o->main_class = a[i];
    o->args = a + i + 1;
    o->n_args = n - i - 1;
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
    parse_java_options(o);
    if (o->shared_cp == NULL)
        o->shared_cp = getenv("JVMREUSE_SHARED_CP");
}
