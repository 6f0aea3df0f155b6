package org.jvmreuse.pool.slot;

import java.util.List;
import java.util.Optional;
import org.jvmreuse.pool.protocol.RunSpec;

/**
 * Whether this JVM gives a run what its {@code --add-opens} and {@code --add-exports}
 * {@code MODULE/PACKAGE=ALL-UNNAMED} options ask for. A running JVM cannot grant them (only its
 * command line, or code inside the module, can), so the slot checks them against what the pool
 * was started with and refuses the run before it starts when one is missing: the client then
 * starts a new JVM with the options.
 */
final class ModuleAccess {
    private ModuleAccess() {
    }

    /**
     * Why {@code spec}'s module options are not met for code in {@code runModule} (the run
     * loader's unnamed module), or null when they all are.
     */
    static String unmet(RunSpec spec, Module runModule) {
        String problem = firstUnmet(spec.addOpens(), true, runModule);
        return problem != null ? problem : firstUnmet(spec.addExports(), false, runModule);
    }

    private static String firstUnmet(List<String> modulePackages, boolean open, Module runModule) {
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
            // Opened implies exported, as for a JVM started with --add-opens.
            boolean given = open ? module.get().isOpen(pkg, runModule) : module.get().isExported(pkg, runModule);
            if (!given) {
                return "the pool's JVMs do not " + (open ? "open " : "export ") + modulePackage
                        + " to ALL-UNNAMED (start the pool with that " + option + ")";
            }
        }
        return null;
    }
}
