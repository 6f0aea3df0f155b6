package org.jvmreuse.pool.slot;

import com.sun.tools.attach.VirtualMachine;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The JVM's {@link Instrumentation} for a slot in a test's JVM ({@link InProcessSlot}), which the
 * pool's agent needs: a pool JVM gets it from its launcher's {@code -javaagent}; here the JDK's
 * attach API loads this class into its own JVM as an agent, from a jar of a manifest only (the
 * class itself is on the class path). The JVM must allow that: {@code -Djdk.attach.allowAttachSelf=true}.
 */
public final class InProcessAgent {
    private static volatile Instrumentation instrumentation;

    private InProcessAgent() {
    }

    /** Called by the JVM when the agent is loaded. */
    public static void agentmain(String args, Instrumentation inst) {
        instrumentation = inst;
    }

    static synchronized Instrumentation instrumentation() throws Exception {
        if (instrumentation == null) {
            if (!Boolean.getBoolean("jdk.attach.allowAttachSelf")) {
                throw new IllegalStateException("a slot in this JVM needs its Instrumentation: start the JVM with"
                        + " -Djdk.attach.allowAttachSelf=true");
            }
            Path jar = Files.createTempFile("in-process-agent", ".jar");
            try {
                writeAgentJar(jar);
                VirtualMachine self = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
                try {
                    self.loadAgent(jar.toString());
                } finally {
                    self.detach();
                }
            } finally {
                Files.delete(jar);
            }
        }
        return instrumentation;
    }

    private static void writeAgentJar(Path jar) throws Exception {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Agent-Class", InProcessAgent.class.getName());
        main.putValue("Can-Retransform-Classes", "true");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.finish();
        }
    }
}
