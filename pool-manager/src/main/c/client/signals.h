/*
 * Signals during a run: those a user sends to `java` are passed on to the program as `signal`
 * frames; those that would end us remove our FIFO directory first; a new JVM gets back the
 * dispositions we inherited.
 */
#ifndef JVMREUSE_CLIENT_SIGNALS_H
#define JVMREUSE_CLIENT_SIGNALS_H

void install_signals(void);
int signal_fd(void);
void forward_signals(int sock);
void restore_signals(void);
void raise_pending_signals(void);

#endif
