package org.jvmreuse.pool.slot;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.security.ProtectionDomain;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.jvmreuse.boot.FirstUseHook;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The pool's Java agent, started in every pool JVM by the launcher's ({@code org.jvmreuse.launch.PoolLauncher},
 * through {@code LayerEntry}) once the pool's module is defined. It rewrites
 * {@code Runtime.exit(int)} and {@code Runtime.halt(int)} to call {@code ExitHook.onExit} first,
 * so a task's exit can end the task instead of the JVM; this works on every JDK from 17 on,
 * including those without a SecurityManager (24+), and catches exits made through reflection or
 * from library code as well as direct calls. It rewrites {@code Thread.start} to call
 * {@code ThreadStartHook.onStart} first, so the slot knows which run every platform thread
 * belongs to from the moment it starts ({@link RunThreadOwners}). It opens the JDK packages
 * the pool's own code switches per run, to the pool's code only ({@link PoolModuleAccess}). And
 * later, when a library asks ({@link FirstUses}), it rewrites the constructors and static methods
 * of the library's classes to call {@code FirstUseHook.used} first.
 */
public final class PoolAgent {
    private static final String RUNTIME = "java/lang/Runtime";
    private static final String THREAD = "java/lang/Thread";
    private static final String EXIT_HOOK = "org/jvmreuse/boot/ExitHook";
    private static final String START_HOOK = "org/jvmreuse/boot/ThreadStartHook";
    private static final String FIRST_USE_HOOK = "org/jvmreuse/boot/FirstUseHook";
    /** Thread.start() and, from JDK 21, Thread.start(ThreadContainer); virtual threads override both. */
    private static final Set<String> START_DESCRIPTORS = Set.of("()V", "(Ljdk/internal/vm/ThreadContainer;)V");

    private static volatile boolean exitHookInstalled;
    private static volatile boolean startHookInstalled;
    private static volatile Instrumentation instrumentation;

    private PoolAgent() {
    }

    public static void install(Instrumentation inst) throws Exception {
        PoolModuleAccess.openTo(inst, PoolAgent.class.getModule());
        ClassFileTransformer transformer = new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                                    ProtectionDomain domain, byte[] bytes) {
                if (RUNTIME.equals(name)) {
                    return rewriteRuntime(bytes);
                }
                return THREAD.equals(name) ? rewriteThread(bytes) : null;
            }
        };
        inst.addTransformer(transformer, true);
        try {
            inst.retransformClasses(Runtime.class, Thread.class);
        } finally {
            inst.removeTransformer(transformer);
        }
        if (!exitHookInstalled) {
            throw new IllegalStateException("could not instrument java.lang.Runtime; exits would end the slot");
        }
        if (!startHookInstalled) {
            throw new IllegalStateException("could not instrument java.lang.Thread; the slot would not know its runs' threads");
        }
        instrumentation = inst;
        FirstUseHook.install(FirstUses.get());
    }

    /** Rewrites every constructor and static method of {@code classes} to call {@code FirstUseHook.used(id)} first. */
    static synchronized void callFirstUse(List<Class<?>> classes, int id) {
        Set<Class<?>> rewritten = new HashSet<>();
        ClassFileTransformer transformer = new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                                    ProtectionDomain domain, byte[] bytes) {
                if (redefined == null || !classes.contains(redefined)) {
                    return null;
                }
                byte[] result = rewriteForFirstUse(bytes, id);
                rewritten.add(redefined);
                return result;
            }
        };
        instrumentation.addTransformer(transformer, true);
        try {
            instrumentation.retransformClasses(classes.toArray(Class<?>[]::new));
        } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
            throw new IllegalStateException("could not instrument " + classes + " for their first use in a run: " + e, e);
        } finally {
            instrumentation.removeTransformer(transformer);
        }
        if (!rewritten.containsAll(classes)) {
            throw new IllegalStateException("could not instrument " + classes + " for their first use in a run");
        }
    }

    private static byte[] rewriteForFirstUse(byte[] bytes, int id) {
        return rewrite(bytes, (access, name, desc) -> {
            boolean constructor = "<init>".equals(name);
            boolean staticMethod = (access & Opcodes.ACC_STATIC) != 0 && !"<clinit>".equals(name);
            if (!constructor && !staticMethod) {
                return null;
            }
            // before a constructor's super call too: it neither reads nor writes `this`
            return mv -> {
                mv.visitLdcInsn(id);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, FIRST_USE_HOOK, "used", "(I)V", false);
            };
        });
    }

    private static byte[] rewriteRuntime(byte[] bytes) {
        return rewrite(bytes, (access, name, desc) -> {
            boolean exit = "exit".equals(name) && "(I)V".equals(desc);
            boolean halt = "halt".equals(name) && "(I)V".equals(desc);
            if (!exit && !halt) {
                return null;
            }
            exitHookInstalled = true;
            return mv -> {
                mv.visitVarInsn(Opcodes.ILOAD, 1);
                mv.visitInsn(halt ? Opcodes.ICONST_1 : Opcodes.ICONST_0);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, EXIT_HOOK, "onExit", "(IZ)V", false);
            };
        });
    }

    private static byte[] rewriteThread(byte[] bytes) {
        return rewrite(bytes, (access, name, desc) -> {
            if (!"start".equals(name) || !START_DESCRIPTORS.contains(desc)) {
                return null;
            }
            startHookInstalled = true;
            return mv -> {
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                mv.visitMethodInsn(Opcodes.INVOKESTATIC, START_HOOK, "onStart", "(Ljava/lang/Thread;)V", false);
            };
        });
    }

    /** What to put at the top of a method, by its access flags, name and descriptor; null leaves it as it is. */
    private interface Prologue {
        Consumer<MethodVisitor> of(int access, String name, String desc);
    }

    private static byte[] rewrite(byte[] bytes, Prologue prologues) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exc) {
                MethodVisitor mv = super.visitMethod(access, name, desc, sig, exc);
                Consumer<MethodVisitor> prologue = prologues.of(access, name, desc);
                if (prologue == null) {
                    return mv;
                }
                return new MethodVisitor(Opcodes.ASM9, mv) {
                    @Override
                    public void visitCode() {
                        super.visitCode();
                        prologue.accept(getDelegate());
                    }
                };
            }
        }, 0);
        return writer.toByteArray();
    }
}
