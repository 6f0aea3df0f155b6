/*
 * The pool's socket: where it is, and a connection to it only once nobody but us can have put
 * a listener there (docs/protocol.md, its opening).
 */
#define _GNU_SOURCE /* struct ucred */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "say.h"
#include "trust.h"

#define CONNECT_RETRY_MS 2000       /* how long a full listen backlog is retried */
#define SOCKET_IO_TIMEOUT_S 30      /* longest a send or the rest of a begun frame may take */

char *socket_path_from_env(void)
{
    const char *s = getenv("JVMREUSE_SOCKET");
    if (s != NULL && *s != '\0')
        return xasprintf("%s", s);
    return xasprintf("/tmp/jvmreuse-%u/pool.sock", (unsigned)getuid());
}

/* Why the socket at path is not one only we can have made, or NULL; *absent tells that the
   directory or the socket is simply not there (no pool).  The directory must be a real
   directory (not a symlink) of ours that nobody else may enter: then nobody but us can have
   put a listener in it or swap it afterwards.  The socket must be a socket of ours. */
static char *untrusted_socket(const char *path, bool *absent)
{
    char *copy = xasprintf("%s", path);
    char *dir = dirname(copy);
    uid_t me = geteuid();
    struct stat st;
    char *why = NULL;
    *absent = false;
    if (lstat(dir, &st) < 0) {
        *absent = errno == ENOENT || errno == ENOTDIR;
        why = xasprintf("cannot examine the pool's directory %s: %s", dir, strerror(errno));
    } else if (S_ISLNK(st.st_mode)) {
        why = xasprintf("the pool's directory %s is a symbolic link; not trusting it", dir);
    } else if (!S_ISDIR(st.st_mode)) {
        why = xasprintf("the pool's directory %s is not a directory; not trusting it", dir);
    } else if (st.st_uid != me) {
        why = xasprintf("the pool's directory %s belongs to uid %u, not to us (uid %u); not trusting it",
                        dir, (unsigned)st.st_uid, (unsigned)me);
    } else if (st.st_mode & 077) {
        why = xasprintf("the pool's directory %s has mode %03o, open to other users; not trusting it",
                        dir, (unsigned)(st.st_mode & 0777));
    } else if (lstat(path, &st) < 0) {
        *absent = errno == ENOENT;
        why = xasprintf("cannot examine %s: %s", path, strerror(errno));
    } else if (!S_ISSOCK(st.st_mode)) {
        why = xasprintf("%s is not a socket; not trusting it", path);
    } else if (st.st_uid != me) {
        why = xasprintf("%s belongs to uid %u, not to us (uid %u); not trusting it", path,
                        (unsigned)st.st_uid, (unsigned)me);
    }
    free(copy);
    return why;
}

/*
 * Returns a connected socket to a pool we verified, or -1 with *problem set; *loud: say the
 * problem even without -v (a pool or directory that is not ours, or one that does not take
 * connections, is a misconfiguration or an attack, not just "no pool").  A Unix socket whose
 * listen backlog is full makes a blocking connect wait forever, so the connect is
 * non-blocking and retried for CONNECT_RETRY_MS.
 */
int connect_pool(const char *path, char **problem, bool *loud)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    bool absent;
    *loud = false;
    if (strlen(path) >= sizeof addr.sun_path) {
        *problem = xasprintf("cannot connect to %s: %s", path, strerror(ENAMETOOLONG));
        return -1;
    }
    char *why = untrusted_socket(path, &absent);
    if (why != NULL) {
        *loud = !absent;
        *problem = absent ? xasprintf("no pool at %s", path) : why;
        return -1;
    }
    strcpy(addr.sun_path, path);
    int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (sock < 0) {
        *problem = xasprintf("cannot create a socket: %s", strerror(errno));
        return -1;
    }
    int waited = 0;
    while (connect(sock, (struct sockaddr *)&addr, sizeof addr) < 0) {
        if (errno == EAGAIN && waited < CONNECT_RETRY_MS) {
            usleep(10 * 1000);
            waited += 10;
            continue;
        }
        if (errno == EINTR)
            continue;
        int e = errno;
        close(sock);
        if (e == ENOENT || e == ECONNREFUSED) {
            *problem = xasprintf("no pool at %s", path);
        } else if (e == EAGAIN) {
            *loud = true;
            *problem = xasprintf("the pool at %s takes no connections (waited %d ms)", path, CONNECT_RETRY_MS);
        } else {
            *loud = e == EACCES || e == EPERM;
            *problem = xasprintf("cannot connect to %s: %s", path, strerror(e));
        }
        return -1;
    }
    /* Blocking again, but no single send or partial frame may stall us forever. */
    struct timeval io = { .tv_sec = SOCKET_IO_TIMEOUT_S };
    struct ucred peer;
    socklen_t len = sizeof peer;
    if (fcntl(sock, F_SETFL, 0) < 0 || setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &io, sizeof io) < 0
        || setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &io, sizeof io) < 0
        || getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &peer, &len) < 0) {
        *problem = xasprintf("cannot set up the connection to %s: %s", path, strerror(errno));
        close(sock);
        return -1;
    }
    if (peer.uid != geteuid()) {
        *loud = true;
        *problem = xasprintf("the process listening at %s runs as uid %u, not as us (uid %u); not trusting it",
                             path, (unsigned)peer.uid, (unsigned)geteuid());
        close(sock);
        return -1;
    }
    return sock;
}
