package org.jvmreuse.it.programs;

import java.lang.reflect.Method;

/**
 * {@code WidenAccess MODULE PACKAGE}: given --add-opens java.base/java.lang, opens PACKAGE of
 * MODULE to every unnamed module by itself (through java.lang.Module's internals), as a library
 * that "fixes" access for later code might. MODULE {@code handed}: the module of the class of the
 * run's thread group (in a slot, the pool's).
 */
public final class WidenAccess {
    public static void main(String[] args) throws Exception {
        Module module = args[0].equals("handed") ? Thread.currentThread().getThreadGroup().getClass().getModule()
                : ModuleLayer.boot().findModule(args[0]).orElseThrow();
        Method addOpens = Module.class.getDeclaredMethod("implAddOpensToAllUnnamed", String.class);
        addOpens.setAccessible(true);
        addOpens.invoke(module, args[1]);
        System.out.println("opened " + module.getName() + "/" + args[1] + " to all unnamed modules");
    }
}
