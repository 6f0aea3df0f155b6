/*
 * `jvmreuse status`, `drain` and `stop`: one request to the pool, its reply printed on stdout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../control_wire.h"
#include "commands.h"
#include "say.h"
#include "trust.h"
#include "wire.h"

noreturn void cmd_control(const char *socket_path, const char *type, bool now, bool json)
{
    char *problem;
    bool loud;
    int sock = connect_pool(socket_path, &problem, &loud);
    if (sock < 0)
        die(1, "%s", problem);
    struct msg m;
    msg_init(&m, type);
    if (now)
        msg_add(&m, WIRE_NOW, "1");
    if (json)
        msg_add(&m, WIRE_FORMAT, WIRE_JSON);
    if (msg_send(sock, &m) < 0 && errno != EPIPE && errno != ECONNRESET)
        die(1, "cannot send to the pool: %s", strerror(errno));
    /* After EPIPE the manager may still have left an `error` reply to read. */

    struct frame f;
    const char *bad;
    int r = read_frame(sock, &f, &bad);
    if (r == FRAME_EOF)
        die(1, "the pool closed the connection without a reply");
    if (r == FRAME_BAD)
        die(1, "bad reply from the pool: %s", bad);
    if (frame_is(&f, WIRE_ERROR))
        die(1, "pool refused the request: %s", frame_get(&f, WIRE_MESSAGE, "(no message)"));
    if (frame_is(&f, WIRE_FALLBACK))
        die(1, "the pool cannot take the request now: %s", frame_get(&f, WIRE_REASON, "(no reason)"));
    if (frame_is(&f, WIRE_STATUS) && json) {
        const char *text = frame_get(&f, WIRE_JSON, NULL);
        if (text == NULL)
            die(1, "the pool sent no JSON status (a pool older than this client?)");
        puts(text);
    } else if (frame_is(&f, WIRE_STATUS) && strcmp(type, WIRE_STATUS) == 0) {
        size_t pos = f.fields;
        const char *line;
        while ((line = frame_next(&f, WIRE_LINE, &pos)) != NULL)
            puts(line);
    } else if (frame_is(&f, WIRE_OK) && strcmp(type, WIRE_STATUS) != 0) {
        puts(frame_get(&f, WIRE_MESSAGE, WIRE_OK));
    } else {
        die(1, "unexpected reply '%s' from the pool", f.data);
    }
    if (fflush(stdout) != 0)
        die(1, "cannot write to stdout: %s", strerror(errno));
    exit(0);
}
