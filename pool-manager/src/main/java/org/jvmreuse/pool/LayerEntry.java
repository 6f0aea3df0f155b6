package org.jvmreuse.pool;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jvmreuse.pool.slot.PoolAgent;

/**
 * The pool module's one way in, a service the launcher ({@code org.jvmreuse.launch.PoolLauncher})
 * finds in the module's layer: given the JVM's {@code Instrumentation} it starts the agent, given
 * the arguments it runs {@link PoolMain}. Each serves once per JVM: a run that finds this service
 * through the pool's layer gets a refusal.
 */
public final class LayerEntry implements Consumer<Object> {
    private static final AtomicBoolean AGENT = new AtomicBoolean();
    private static final AtomicBoolean MAIN = new AtomicBoolean();

    @Override
    public void accept(Object call) {
        try {
            if (call instanceof Instrumentation inst && AGENT.compareAndSet(false, true)) {
                PoolAgent.install(inst);
            } else if (call instanceof String[] args && AGENT.get() && MAIN.compareAndSet(false, true)) {
                PoolMain.main(args);
            } else {
                throw new IllegalStateException("the pool's entry serves once, at the JVM's start");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new UndeclaredThrowableException(e);
        }
    }
}
