package org.jvmreuse.pool.mpi;

/** A communication loop's handler for a test that watches the loop, not what it delivers: ignores every message and loss. */
public final class NoMessages implements MpiTransport.Handler {
    private final boolean everyPeerRings;

    /** {@code everyPeerRings}: whether the loop may wait long on its doorbells (true) or polls as for peers on other hosts. */
    public NoMessages(boolean everyPeerRings) {
        this.everyPeerRings = everyPeerRings;
    }

    @Override
    public void onMessage(int source, int tag, byte[] payload) {
    }

    @Override
    public void onPeerLost(int rank) {
    }

    @Override
    public boolean everyPeerRings() {
        return everyPeerRings;
    }
}
