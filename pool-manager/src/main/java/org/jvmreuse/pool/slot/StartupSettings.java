package org.jvmreuse.pool.slot;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import org.jvmreuse.pool.admission.NotAdmitted;
import org.jvmreuse.pool.admission.RunLimits;
import org.jvmreuse.pool.admission.SlotProfile;
import org.jvmreuse.pool.admission.StackSize;
import org.jvmreuse.pool.os.Native;
import org.jvmreuse.pool.protocol.RunSpec;
import org.jvmreuse.pool.protocol.StartupInputs;

/**
 * What a new JVM sets once, at start-up, from its options and from the process that starts it,
 * given to one run: the default time zone and locales, the umask, the resource limits, the
 * stack size of the main thread and the input arguments it reports. The encodings cannot be
 * (the JDK caches its charsets for good): a run whose encodings would differ from the slot's
 * never gets here, the manager's admission sends it to a new JVM.
 */
final class StartupSettings implements RunStep {
    private final SlotProfile profile;
    private final RunTimeZone timeZones;
    private final ResourceLimits limits = new ResourceLimits();
    private final InputArguments inputArguments = new InputArguments();
    private int slotUmask = -1;

    /** {@code profile}: what the slot was started with, as it told its manager. */
    StartupSettings(SlotProfile profile) {
        this.profile = profile;
        this.timeZones = new RunTimeZone(profile);
    }

    /** What a run gets; {@code stackSize} 0 is the JVM's default. */
    record Plan(TimeZone zone, RunLocale.Defaults locales, Map<String, Long> limits, int umask, long stackSize,
                List<String> inputArguments) {
    }

    /**
     * What an admitted run gets from its request and its properties (the manager's admission
     * checked that a slot can give it: {@link org.jvmreuse.pool.admission.Admission}). Null for a
     * run that asks for the slot's own settings (its warm-up runs).
     */
    Plan plan(RunSpec spec, Properties runProperties) {
        StartupInputs inputs = spec.startup();
        if (inputs.equals(StartupInputs.SLOT) && spec.properties().isEmpty()) {
            return null;
        }
        try {
            return new Plan(timeZones.of(spec.properties(), spec.environment()), RunLocale.of(runProperties),
                    RunLimits.changes(inputs.limits(), profile.limits()), inputs.umask(), StackSize.bytes(inputs.stackSize()),
                    inputs.vmArguments());
        } catch (NotAdmitted e) {
            throw new Refused(e.getMessage()); // only if the slot no longer is what it said at HELLO
        }
    }

    /** Sets the run's planned settings; {@link #restore} puts the umask and limits back, the JDK-wide state guard the rest. */
    @Override
    public void lend(RunStart run) {
        Plan plan = run.startup;
        if (plan == null) {
            return;
        }
        plan.locales().apply();
        TimeZone.setDefault(plan.zone());
        System.setProperty("user.timezone", plan.zone().getID()); // as a new JVM sets it with its default
        if (plan.umask() >= 0) {
            slotUmask = Native.umask(plan.umask());
        }
        limits.apply(plan.limits());
        inputArguments.show(plan.inputArguments());
    }

    @Override
    public String restore(RunEnd end) {
        inputArguments.putBack();
        if (slotUmask >= 0) {
            Native.umask(slotUmask);
            slotUmask = -1;
        }
        List<String> failed = new ArrayList<>();
        limits.restore().forEach(name -> failed.add("resource limit " + name));
        return failed.isEmpty() ? null : "run " + end.id() + " changed start-up settings that cannot be put back: " + failed;
    }
}
