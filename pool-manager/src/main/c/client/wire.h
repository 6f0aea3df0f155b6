/*
 * The control protocol's frames (docs/protocol.md, "Framing"): building and sending a message,
 * reading one and looking up its fields.  The names are control_wire.h's.
 */
#ifndef JVMREUSE_CLIENT_WIRE_H
#define JVMREUSE_CLIENT_WIRE_H

#include <stdbool.h>
#include <stddef.h>

/* An outgoing message; data[0..WIRE_HEADER_LEN) is reserved for the frame header. */
struct msg {
    char *data;
    size_t len, cap;
    bool too_big;   /* a field did not fit in WIRE_MAX_PAYLOAD; the message must not be sent */
};

void msg_init(struct msg *m, const char *type);
void msg_add(struct msg *m, const char *key, const char *value);
int msg_send(int sock, struct msg *m);

/* An incoming message: NUL-terminated strings, the first one the type. */
struct frame {
    char *data;
    size_t len;
    size_t fields;  /* offset of the first field */
};

enum { FRAME_BAD = -1, FRAME_EOF = 0, FRAME_OK = 1 };

int read_frame(int sock, struct frame *f, const char **problem);
const char *frame_next(const struct frame *f, const char *key, size_t *pos);
const char *frame_get(const struct frame *f, const char *key, const char *missing);
bool frame_is(const struct frame *f, const char *type);

#endif
