package org.jvmreuse.pool.slot;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jvmreuse.pool.jdk.JdkInternals;
import org.jvmreuse.pool.protocol.RunSpec;

/**
 * Gives a run the module access its {@code --add-opens}/{@code --add-exports
 * MODULE/PACKAGE=ALL-UNNAMED} ask for, as a new JVM started with them would, and takes it back
 * after the run. The slot's JVM opens nothing to unnamed modules itself ({@link PoolModuleAccess}),
 * so a run without such options gets what {@code java} gives: no deep reflection into the JDK.
 * <p>
 * After a run, every package of the boot layer, and of the pool's own layer (a run given
 * {@code java.lang} could open the pool's module to itself), is checked against what it was when the slot
 * started, as seen from an unnamed module no code uses (which stands for every class-path
 * loader) and from the shared loaders' unnamed modules: a run given {@code java.lang} can open
 * more by itself. A package opened or exported since is taken back where the JDK keeps that in
 * Java (the reflective opens and exports of {@code java.lang.Module}); one that was not
 * exported before stays exported inside the VM (a linked call to its public types works), which
 * cannot be taken back, so the slot retires.
 */
final class RunModuleAccess {
    private final Method addOpens = JdkInternals.method("java.lang.Module", "implAddOpensToAllUnnamed", String.class);
    private final Method addExports = JdkInternals.method("java.lang.Module", "implAddExportsToAllUnnamed", String.class);
    private final Object reflective = JdkInternals.get(JdkInternals.field("java.lang.Module$ReflectionData", "exports"), null);
    private final Method reflectiveGet = JdkInternals.method("java.lang.WeakPairMap", "get", Object.class, Object.class);
    private final Module allUnnamed = module("ALL_UNNAMED_MODULE");
    private final Module everyone = module("EVERYONE_MODULE");
    /** An unnamed module no code lives in. */
    private final Module probe = new URLClassLoader(new URL[0], null).getUnnamedModule();
    /** The modules a run may open more of: the JDK's, and the pool's own layer's (the pool, ASM, mpi.jar). */
    private final List<Module> watched = watched();
    /** "module/package" open, and exported, to unnamed modules when the slot started. */
    private final Set<String> baseOpen = new HashSet<>();
    private final Set<String> baseExported = new HashSet<>();

    RunModuleAccess() {
        for (Module m : watched) {
            for (String pkg : m.getPackages()) {
                if (m.isOpen(pkg, probe)) {
                    baseOpen.add(m.getName() + "/" + pkg);
                }
                if (m.isExported(pkg, probe)) {
                    baseExported.add(m.getName() + "/" + pkg);
                }
            }
        }
    }

    private static List<Module> watched() {
        List<Module> modules = new ArrayList<>(ModuleLayer.boot().modules());
        ModuleLayer pool = RunModuleAccess.class.getModule().getLayer();
        if (pool != null && pool != ModuleLayer.boot()) {
            modules.addAll(pool.modules());
        }
        return modules;
    }

    /** Module's fields are hidden from reflection (getDeclaredField), not from a private lookup. */
    private static Module module(String field) {
        try {
            return (Module) MethodHandles.privateLookupIn(Module.class, MethodHandles.lookup())
                    .findStaticVarHandle(Module.class, field, Module.class).get();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot reach java.lang.Module." + field + " in Java " + Runtime.version()
                    + " (is the slot JVM started by the pool's launcher, -javaagent:pool-manager-*-launcher.jar?)", e);
        }
    }

    /** Opens and exports what {@code spec} asks for to all unnamed modules; null, or why it cannot. */
    String grant(RunSpec spec) {
        String problem = grant(spec.addOpens(), true);
        return problem != null ? problem : grant(spec.addExports(), false);
    }

    private String grant(List<String> modulePackages, boolean open) {
        String option = open ? "--add-opens" : "--add-exports";
        for (String modulePackage : modulePackages) {
            int slash = modulePackage.indexOf('/');
            String moduleName = modulePackage.substring(0, slash);
            String pkg = modulePackage.substring(slash + 1);
            Optional<Module> module = ModuleLayer.boot().findModule(moduleName);
            if (module.isEmpty()) {
                return "the pool's JVMs have no module " + moduleName + " (" + option + " " + modulePackage
                        + "=ALL-UNNAMED)";
            }
            if (!module.get().getPackages().contains(pkg)) {
                return "module " + moduleName + " has no package " + pkg + " in the pool's JVMs (" + option + " "
                        + modulePackage + "=ALL-UNNAMED)";
            }
            try {
                (open ? addOpens : addExports).invoke(module.get(), pkg);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot give the run " + option + " " + modulePackage, e);
            }
        }
        return null;
    }

    /**
     * Takes back what unnamed modules were given during the run; returns what cannot be (empty
     * when the JVM's module access is as it was when the slot started). {@code shared}: the
     * unnamed modules of the loaders that outlive the run.
     */
    List<String> takeBack(List<Module> shared) {
        List<Module> viewers = new ArrayList<>(shared.size() + 1);
        viewers.add(probe);
        viewers.addAll(shared);
        List<String> kept = new ArrayList<>();
        for (Module m : watched) {
            for (String pkg : m.getPackages()) {
                String name = m.getName() + "/" + pkg;
                boolean wasOpen = baseOpen.contains(name);
                boolean wasExported = baseExported.contains(name);
                for (Module viewer : viewers) {
                    if (m.isOpen(pkg, viewer) == wasOpen && m.isExported(pkg, viewer) == wasExported) {
                        continue;
                    }
                    for (Module target : List.of(allUnnamed, everyone, viewer)) {
                        revoke(m, target, pkg, wasExported);
                    }
                    if (!wasExported) {
                        kept.add(name + " (exported to unnamed modules inside the VM)");
                    } else if (m.isOpen(pkg, viewer) != wasOpen || m.isExported(pkg, viewer) != wasExported) {
                        kept.add(name + " (opened other than through java.lang.Module's reflective opens)");
                    }
                    break;
                }
            }
        }
        return kept;
    }

    /** Removes {@code pkg} from what {@code m} reflectively opens or exports to {@code target}. */
    @SuppressWarnings("unchecked")
    private void revoke(Module m, Module target, String pkg, boolean keepExported) {
        Map<String, Boolean> packages;
        try {
            packages = (Map<String, Boolean>) reflectiveGet.invoke(reflective, m, target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read what " + m + " opens to " + target, e);
        }
        if (packages != null && packages.containsKey(pkg)) {
            if (keepExported) {
                packages.put(pkg, Boolean.FALSE);
            } else {
                packages.remove(pkg);
            }
        }
    }
}
