package org.jvmreuse.shuffle.reduce;

import java.util.function.BiConsumer;
import org.jvmreuse.boot.RunHook;
import org.jvmreuse.boot.SlotAccess;

/**
 * The MPI shuffle's run hook (META-INF/services/org.jvmreuse.boot.RunHook): the slot makes it
 * when it loads Hadoop's shared class path, and it attaches the reduce side to the slot's MPI
 * ({@link SlotLink#current} is then a {@link PortLink} on the slot's port); after every run, what
 * the run left waiting for replies is dropped. A reducer outside a pool never loads it.
 */
public final class SlotLinkHook implements RunHook {
    @Override
    public void attach(SlotAccess slot) {
        SlotLink.attach(PortLink.on(slot.port()));
    }

    @Override
    public void beforeRun(BiConsumer<String, String> setenv) {
        // nothing: a run starts with no request waiting
    }

    @Override
    public void afterRun(boolean exitHooks) {
        SlotLink.afterRun();
    }
}
