/*
 * Start-up settings a `java` takes from the process that starts it and a running slot must be
 * given per run: the one list the client (client/request.c, which sends them) and the slot's JNI
 * library (jvmreuse_native.c, which reads and sets them for the slot) share.  The slot decides
 * what it can apply and falls back to a new JVM for the rest (docs/protocol.md, "Start-up
 * settings").
 */
#ifndef JVMREUSE_STARTUP_SETTINGS_H
#define JVMREUSE_STARTUP_SETTINGS_H

#include <sys/resource.h>

/* Resource limits, by the names the `rlimit` field carries. */
static const struct {
    const char *name;
    int resource;
} startup_rlimits[] = {
    { "cpu", RLIMIT_CPU },         { "fsize", RLIMIT_FSIZE },     { "data", RLIMIT_DATA },
    { "stack", RLIMIT_STACK },     { "core", RLIMIT_CORE },       { "rss", RLIMIT_RSS },
    { "nproc", RLIMIT_NPROC },     { "nofile", RLIMIT_NOFILE },   { "memlock", RLIMIT_MEMLOCK },
    { "as", RLIMIT_AS },           { "locks", RLIMIT_LOCKS },     { "sigpending", RLIMIT_SIGPENDING },
    { "msgqueue", RLIMIT_MSGQUEUE }, { "nice", RLIMIT_NICE },     { "rtprio", RLIMIT_RTPRIO },
    { "rttime", RLIMIT_RTTIME },
};
#define N_STARTUP_RLIMITS (sizeof startup_rlimits / sizeof startup_rlimits[0])

#endif
