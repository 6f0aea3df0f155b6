/*
 * The control protocol's frames (docs/protocol.md, "Framing"): building and sending a message,
 * reading one and looking up its fields.  The names are control_wire.h's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../control_wire.h"
#include "say.h"
#include "wire.h"

static void msg_append(struct msg *m, const char *s, size_t n)
{
    if (m->len + n > m->cap) {
        while (m->len + n > m->cap)
            m->cap = m->cap ? 2 * m->cap : 4096;
        m->data = xrealloc(m->data, m->cap);
    }
    memcpy(m->data + m->len, s, n);
    m->len += n;
}

/* Appends "key=value\0". */
void msg_add(struct msg *m, const char *key, const char *value)
{
    size_t klen = strlen(key), vlen = strlen(value);
    if (m->too_big || klen + vlen + 2 > WIRE_HEADER_LEN + WIRE_MAX_PAYLOAD - m->len) {
        m->too_big = true;
        return;
    }
    msg_append(m, key, klen);
    msg_append(m, "=", 1);
    msg_append(m, value, vlen + 1);
}

void msg_init(struct msg *m, const char *type)
{
    *m = (struct msg){ 0 };
    msg_append(m, "\0\0\0\0", WIRE_HEADER_LEN);
    msg_append(m, type, strlen(type) + 1);
}

/* Sends all of buf; MSG_NOSIGNAL turns a closed peer into EPIPE instead of SIGPIPE. */
static int send_all(int sock, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = send(sock, buf, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

int msg_send(int sock, struct msg *m)
{
    uint32_t n = (uint32_t)(m->len - WIRE_HEADER_LEN);
    unsigned char *h = (unsigned char *)m->data;
    h[0] = (unsigned char)(n >> 24);
    h[1] = (unsigned char)(n >> 16);
    h[2] = (unsigned char)(n >> 8);
    h[3] = (unsigned char)n;
    return send_all(sock, m->data, m->len);
}

/* Reads up to n bytes, fewer only at end of file; -1 on error. */
static ssize_t read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r == 0)
            break;
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        got += (size_t)r;
    }
    return (ssize_t)got;
}

/*
 * Reads one frame (blocking).  FRAME_EOF: the peer closed (or reset) the connection
 * between frames.  FRAME_BAD: *problem says what was wrong.
 */
int read_frame(int sock, struct frame *f, const char **problem)
{
    unsigned char h[WIRE_HEADER_LEN];
    ssize_t n = read_full(sock, h, sizeof h);
    if (n == 0 || (n < 0 && errno == ECONNRESET))
        return FRAME_EOF;
    if (n < 0) {
        *problem = errno == EAGAIN ? "no complete message within the socket's time limit" : strerror(errno);
        return FRAME_BAD;
    }
    if (n < WIRE_HEADER_LEN) {
        *problem = "connection closed in the middle of a message";
        return FRAME_BAD;
    }
    uint32_t len = (uint32_t)h[0] << 24 | (uint32_t)h[1] << 16 | (uint32_t)h[2] << 8 | h[3];
    if (len == 0 || len > WIRE_MAX_PAYLOAD) {
        *problem = "message length outside 1 byte .. 1 MiB";
        return FRAME_BAD;
    }
    f->data = xrealloc(NULL, len);
    f->len = len;
    n = read_full(sock, f->data, len);
    if (n != (ssize_t)len) {
        *problem = n < 0 ? (errno == EAGAIN ? "no complete message within the socket's time limit" : strerror(errno))
                         : "connection closed in the middle of a message";
        free(f->data);
        return FRAME_BAD;
    }
    if (f->data[len - 1] != '\0') {
        *problem = "message not NUL-terminated";
        free(f->data);
        return FRAME_BAD;
    }
    f->fields = strlen(f->data) + 1;
    return FRAME_OK;
}

/* The value of the next field `key` at or after offset *pos, which moves past it. */
const char *frame_next(const struct frame *f, const char *key, size_t *pos)
{
    size_t klen = strlen(key);
    while (*pos < f->len) {
        const char *s = f->data + *pos;
        *pos += strlen(s) + 1;
        if (strncmp(s, key, klen) == 0 && s[klen] == '=')
            return s + klen + 1;
    }
    return NULL;
}

/* The value of the first field `key`, or `missing`. */
const char *frame_get(const struct frame *f, const char *key, const char *missing)
{
    size_t pos = f->fields;
    const char *v = frame_next(f, key, &pos);
    return v ? v : missing;
}

bool frame_is(const struct frame *f, const char *type)
{
    return strcmp(f->data, type) == 0;
}
