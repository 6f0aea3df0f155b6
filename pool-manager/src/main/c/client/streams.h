/*
 * Where the program's stdin/stdout/stderr go: handed to the slot directly as /proc/<pid>/fd/N,
 * or through FIFOs in a directory of ours next to the pool's socket; and the run request's
 * fields that tell the slot which.
 */
#ifndef JVMREUSE_CLIENT_STREAMS_H
#define JVMREUSE_CLIENT_STREAMS_H

#include "wire.h"

char *set_up_streams(const char *socket_path);
const char *stream_fifo(int fd);
void add_stream_fields(struct msg *m);
void catch_up_direct_files(void);
void remove_fifo_dir(void);

#endif
