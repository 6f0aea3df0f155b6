package org.jvmreuse.pool.slot;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Java agent loaded into every pool JVM ({@code -javaagent}). It rewrites
 * {@code Runtime.exit(int)} and {@code Runtime.halt(int)} to call {@code ExitHook.onExit} first,
 * so a task's exit can end the task instead of the JVM. This works on every JDK from 17 on,
 * including those without a SecurityManager (24+), and catches exits made through reflection or
 * from library code as well as direct calls. It also opens the JDK packages the pool's own code
 * switches per run, to the pool's code only ({@link PoolModuleAccess}).
 */
public final class ExitTrapAgent {
    private static final String RUNTIME = "java/lang/Runtime";
    private static final String HOOK = "org/jvmreuse/boot/ExitHook";

    private static volatile boolean exitHookInstalled;

    private ExitTrapAgent() {
    }

    public static void premain(String args, Instrumentation inst) throws Exception {
        PoolModuleAccess.openTo(inst, ExitTrapAgent.class.getModule());
        ClassFileTransformer transformer = new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                                    ProtectionDomain domain, byte[] bytes) {
                return RUNTIME.equals(name) ? rewriteRuntime(bytes) : null;
            }
        };
        inst.addTransformer(transformer, true);
        try {
            inst.retransformClasses(Runtime.class);
        } finally {
            inst.removeTransformer(transformer);
        }
        if (!exitHookInstalled) {
            throw new IllegalStateException("could not instrument java.lang.Runtime; exits would end the slot");
        }
    }

    static byte[] rewriteRuntime(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                MethodVisitor mv = super.visitMethod(access, name, desc, sig, exc);
                boolean exit = "exit".equals(name) && "(I)V".equals(desc);
                boolean halt = "halt".equals(name) && "(I)V".equals(desc);
                if (!exit && !halt) {
                    return mv;
                }
                exitHookInstalled = true;
                return new MethodVisitor(Opcodes.ASM9, mv) {
                    @Override
                    public void visitCode() {
                        super.visitCode();
                        super.visitVarInsn(Opcodes.ILOAD, 1);
                        super.visitInsn(halt ? Opcodes.ICONST_1 : Opcodes.ICONST_0);
                        super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "onExit", "(IZ)V", false);
                    }
                };
            }
        }, 0);
        return writer.toByteArray();
    }
}
