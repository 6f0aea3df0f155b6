/*
 * The relays between our stdio and the FIFOs of the streams not handed to the slot directly:
 * the program's stdout/stderr out of their FIFOs, our stdin into its FIFO once the run started.
 */
#ifndef JVMREUSE_CLIENT_RELAY_H
#define JVMREUSE_CLIENT_RELAY_H

#include <poll.h>
#include <stdbool.h>

/* The relays' places in the poll set run_loop hands arm_relays and service_relays. */
enum { RELAY_OUT, RELAY_ERR, RELAY_IN, N_RELAYS };

void open_relays(void);
long arm_relays(struct pollfd p[N_RELAYS], bool started);
void service_relays(const struct pollfd p[N_RELAYS]);
void drain_output_relays(void);

#endif
