/*
 * Going to a new JVM: exec `java` with the arguments we were given, as if the pool had never
 * been asked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fallback.h"
#include "say.h"
#include "signals.h"
#include "streams.h"

noreturn void exec_java(const struct run_opts *o)
{
    remove_fifo_dir();
    restore_signals();
    raise_pending_signals();

    char **argv = xrealloc(NULL, sizeof(char *) * (size_t)(o->n_java_args + 2));
    const char *java_home = getenv("JAVA_HOME");
    const char *java = java_home && *java_home ? xasprintf("%s/bin/java", java_home) : "java";
    argv[0] = (char *)java;
    memcpy(argv + 1, o->java_args, sizeof(char *) * (size_t)o->n_java_args);
    argv[o->n_java_args + 1] = NULL;
    if (java_home && *java_home)
        execv(java, argv);
    else
        execvp(java, argv);
    die(errno == ENOENT ? 127 : 126, "cannot start %s: %s", java, strerror(errno));
}

/* The reason, as one line, in the file the caller named (a NodeManager logs it after the
   container): best effort, the run goes on without it. */
static void write_note(const char *path, const char *reason)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        say("cannot write the fallback note %s: %s", path, strerror(errno));
        return;
    }
    char *line = xasprintf("%s\n", reason);
    size_t len = strlen(line);
    if (write(fd, line, len) != (ssize_t)len)
        say("cannot write the fallback note %s: %s", path, strerror(errno));
    close(fd);
    free(line);
}

noreturn void fallback(const struct run_opts *o, const char *reason)
{
    if (verbose)
        say("%s; starting a new JVM", reason);
    if (o->fallback_note != NULL)
        write_note(o->fallback_note, reason);
    /* java writes through our offsets: past what a slot (or our message) appended */
    catch_up_direct_files();
    exec_java(o);
}
