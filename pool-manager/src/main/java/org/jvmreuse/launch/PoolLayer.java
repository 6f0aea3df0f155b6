package org.jvmreuse.launch;

import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReader;
import java.lang.module.ModuleReference;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Defines the pool's code as a named module, {@code org.jvmreuse.pool}, that exports and opens
 * nothing. A run reaches the pool's classes only as objects it is handed (its thread group, the
 * slot's frames under its {@code main} on a {@code StackWalker}); in a named module that exports
 * nothing, such a class is a name: its methods and fields refuse the run's code, through
 * reflection and method handles alike, as a JDK-internal package refuses code without
 * {@code --add-opens}. On the class path the pool's classes would be public to every run.
 *
 * <p>The module holds every package of the pool jar but the boot package ({@code org.jvmreuse.boot},
 * on the boot class path, which the module reads) and this launcher; it requires every module of
 * the boot layer and the library jars given (ASM, Open MPI's {@code mpi.jar}), which sit in the
 * same layer. Its one way in is the service it provides, {@code LayerEntry}, which serves once.
 */
final class PoolLayer {
    static final String MODULE = "org.jvmreuse.pool";
    private static final String ENTRY = "org.jvmreuse.pool.LayerEntry";
    private static final Set<String> OUTSIDE = Set.of("org.jvmreuse.boot", "org.jvmreuse.launch");
    private static final String BOOT_CLASS = "org.jvmreuse.boot.ExitHook";

    private PoolLayer() {
    }

    /** Defines the layer of {@code poolJar} and {@code libraries}; returns the pool's entry. */
    @SuppressWarnings("unchecked")
    static Consumer<Object> define(Path poolJar, List<Path> libraries) {
        ModuleFinder libraryFinder = ModuleFinder.of(libraries.toArray(Path[]::new));
        ModuleReference jar = ModuleFinder.of(poolJar).findAll().stream().findFirst()
                .orElseThrow(() -> new IllegalArgumentException("not a jar of the pool: " + poolJar));
        ModuleReference pool = withDescriptor(jar, descriptor(jar.descriptor().packages(), libraryFinder));
        ModuleFinder finder = ModuleFinder.compose(single(pool), libraryFinder);
        Configuration configuration = ModuleLayer.boot().configuration()
                .resolve(finder, ModuleFinder.of(), Set.of(MODULE));
        ModuleLayer.Controller controller = ModuleLayer.defineModulesWithOneLoader(configuration,
                List.of(ModuleLayer.boot()), ClassLoader.getPlatformClassLoader());
        Module module = controller.layer().findModule(MODULE).orElseThrow();
        controller.addReads(module, bootPackageModule());
        enableNativeAccess(controller, module);
        for (Consumer<?> entry : ServiceLoader.load(controller.layer(), Consumer.class)) {
            if (entry.getClass().getModule() == module) {
                return (Consumer<Object>) entry;
            }
        }
        throw new IllegalStateException("the pool module provides no " + ENTRY + " (a pool jar of another version?)");
    }

    private static ModuleDescriptor descriptor(Set<String> jarPackages, ModuleFinder libraries) {
        ModuleDescriptor.Builder builder = ModuleDescriptor.newModule(MODULE);
        for (Module boot : ModuleLayer.boot().modules()) {
            if (!"java.base".equals(boot.getName())) {
                builder.requires(boot.getName());
            }
        }
        for (ModuleReference library : libraries.findAll()) {
            builder.requires(library.descriptor().name());
        }
        Set<String> packages = new HashSet<>(jarPackages);
        packages.removeAll(OUTSIDE);
        return builder.packages(packages).provides(Consumer.class.getName(), List.of(ENTRY)).build();
    }

    /** The unnamed module of the boot class path, where the exit and thread-start hooks are. */
    private static Module bootPackageModule() {
        try {
            return Class.forName(BOOT_CLASS, false, null).getModule();
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the pool's boot jar is not on the boot class path"
                    + " (-Xbootclasspath/a:pool-manager-*-boot.jar)", e);
        }
    }

    /** JDK 22+: the pool loads its JNI libraries without the restricted-method warning, and only it. */
    private static void enableNativeAccess(ModuleLayer.Controller controller, Module module) {
        try {
            Method enable = ModuleLayer.Controller.class.getMethod("enableNativeAccess", Module.class);
            enable.invoke(controller, module);
        } catch (NoSuchMethodException olderJdk) {
            // Before JDK 22 native access is not restricted.
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot enable native access for the pool module", e);
        }
    }

    private static ModuleReference withDescriptor(ModuleReference jar, ModuleDescriptor descriptor) {
        return new ModuleReference(descriptor, jar.location().orElse(null)) {
            @Override
            public ModuleReader open() throws java.io.IOException {
                return jar.open();
            }
        };
    }

    private static ModuleFinder single(ModuleReference reference) {
        return new ModuleFinder() {
            @Override
            public Optional<ModuleReference> find(String name) {
                return name.equals(reference.descriptor().name()) ? Optional.of(reference) : Optional.empty();
            }

            @Override
            public Set<ModuleReference> findAll() {
                return Set.of(reference);
            }
        };
    }
}
