package org.jvmreuse.pool.mpi;

/** A transport's communication loop on a thread of its own, as a pool process runs it, for the tests. */
final class CommLoop {
    private CommLoop() {
    }

    /** Runs {@code transport}'s loop with {@code handler} on a new thread named test-comm-loop; returns it, started. */
    static Thread start(MpiTransport transport, MpiTransport.Handler handler) {
        Thread loop = new Thread(() -> {
            try {
                transport.run(handler);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "test-comm-loop");
        loop.start();
        return loop;
    }
}
