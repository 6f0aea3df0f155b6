package org.jvmreuse.pool.admission;

import java.nio.charset.Charset;
import java.util.List;
import org.jvmreuse.pool.protocol.JavaCommandLine;
import org.jvmreuse.pool.protocol.RunSpec;
import org.jvmreuse.pool.protocol.StartupInputs;

/**
 * Whether a run may go to a slot or must start in a new JVM: the one rule, decided by the manager
 * before it picks a slot, against what its slots were started with ({@link SlotProfile}). A run
 * is admitted only if a slot can give it all that a new JVM started with its options and from its
 * process would have: its heap, the module access it asks for (and no more), its C library locale and the
 * encodings derived from it, its {@code -Xss}, its resource limits, its time zone and the system
 * properties the JDK reads once ({@link StartProperties}). The slot
 * applies an admitted run with the same rules ({@link StackSize}, {@link RunLimits},
 * {@link RunZone}).
 */
public final class Admission {
    private Admission() {
    }

    /** Set in a run's environment, these make a new JVM take more options, which a running slot cannot. */
    private static final List<String> LAUNCHER_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    /**
     * Why the run of {@code command} ({@code spec}: what a slot would take of it) must start in a
     * new JVM rather than in a slot started as {@code slot}; null if it may go to a slot. With no
     * {@code slot} yet (none said HELLO) only what the run alone decides is checked.
     */
    public static String refusal(RunSpec spec, JavaCommandLine command, SlotProfile slot) {
        if (command.unsupported() != null) {
            return command.unsupported();
        }
        for (String variable : LAUNCHER_VARIABLES) {
            if (!spec.environment().getOrDefault(variable, "").isEmpty()) {
                return variable + " is set, and only a new JVM applies it";
            }
        }
        if (slot == null) {
            return null;
        }
        try {
            HeapOption.check(command.fixedOptions(), slot.maxHeapBytes());
            checkModules(spec.addOpens(), "--add-opens", slot);
            checkModules(spec.addExports(), "--add-exports", slot);
            checkStartAccess(spec, slot);
            checkEncodings(spec, slot);
            StackSize.bytes(spec.startup().stackSize());
            RunLimits.changes(spec.startup().limits(), slot.limits());
            RunZone.of(spec.properties(), spec.environment(), slot);
            StartProperties.check(spec.properties(), slot.startProperties());
            return null;
        } catch (NotAdmitted e) {
            return e.getMessage();
        }
    }

    /** A module or package the slots' JVMs lack: a new JVM reports it as {@code java} does. */
    private static void checkModules(List<String> modulePackages, String option, SlotProfile slot) {
        for (String modulePackage : modulePackages) {
            if (slot.modulePackages().contains(modulePackage)) {
                continue;
            }
            String module = modulePackage.substring(0, modulePackage.indexOf('/')) + "/";
            boolean knownModule = slot.modulePackages().stream().anyMatch(name -> name.startsWith(module));
            throw new NotAdmitted(knownModule
                    ? "module " + module.substring(0, module.length() - 1) + " has no package "
                            + modulePackage.substring(module.length()) + " in the pool's JVMs (" + option + " "
                            + modulePackage + "=ALL-UNNAMED)"
                    : "the pool's JVMs have no module " + module.substring(0, module.length() - 1) + " (" + option + " "
                            + modulePackage + "=ALL-UNNAMED)");
        }
    }

    /** The access every unnamed module has in the slots from their start, which a slot cannot withhold from a run. */
    private static void checkStartAccess(RunSpec spec, SlotProfile slot) {
        String missing = slot.startAccess().notAskedFor(spec.addOpens(), spec.addExports());
        if (missing != null) {
            throw new NotAdmitted("the pool's JVMs were started with " + missing
                    + ", which the run does not ask for (a new JVM started without it gives no such access)");
        }
    }

    /**
     * The JDK caches its charsets for good, so a run whose encodings would differ from the slot's
     * (its {@code -D}, or a C library locale other than the slot's, from which a new JVM derives
     * them and its locale) needs a new JVM.
     */
    private static void checkEncodings(RunSpec spec, SlotProfile slot) {
        StartupInputs inputs = spec.startup();
        String runLocale = String.join("\n", inputs.localeCtype(), inputs.localeMessages(), inputs.codeset());
        if (inputs.hasLocale() && !runLocale.equals(slot.locale())) {
            throw new NotAdmitted("the run's C library locale (" + runLocale.replace('\n', ' ') + ") is not the slot's ("
                    + slot.locale().replace('\n', ' ') + "); a new JVM derives its locale and encodings from it");
        }
        for (String name : SlotProfile.ENCODINGS) {
            String given = spec.properties().get(name);
            if (given != null && !sameCharset(given, slot.encodings().get(name))) {
                throw new NotAdmitted("-D" + name + "=" + given + " is not the slot's encoding ("
                        + slot.encodings().get(name) + "), which the JDK fixes at start-up");
            }
        }
    }

    private static boolean sameCharset(String given, String slot) {
        try {
            return slot != null && Charset.forName(given).equals(Charset.forName(slot));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
