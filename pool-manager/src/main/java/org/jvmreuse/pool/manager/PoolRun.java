package org.jvmreuse.pool.manager;

import java.util.concurrent.ScheduledFuture;
import org.jvmreuse.pool.protocol.RunSpec;

/** One run request on its way from a client connection through a slot. Guarded by the manager. */
final class PoolRun {
    enum State { QUEUED, RUNNING, FINISHED }

    final long id;
    final RunSpec spec;
    final String classPathKey;
    final long waitMillis;
    final ClientSession client;
    final long receivedNanos = System.nanoTime();
    State state = State.QUEUED;
    int slot = -1;
    boolean reuse;
    ScheduledFuture<?> waitTimer;

    PoolRun(long id, RunSpec spec, String classPathKey, long waitMillis, ClientSession client) {
        this.id = id;
        this.spec = spec;
        this.classPathKey = classPathKey;
        this.waitMillis = waitMillis;
        this.client = client;
    }
}
