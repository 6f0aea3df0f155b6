package org.jvmreuse.pool.slot;

import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jvmreuse.pool.os.Native;
import org.jvmreuse.pool.protocol.RunSpec;
import org.jvmreuse.pool.protocol.StartupInputs;

/**
 * What a new JVM sets once, at start-up, from its options and from the process that starts it,
 * given to one run: the default time zone and locales, the umask, the resource limits and the
 * stack size of the main thread. The encodings cannot be: the JDK caches its charsets for good, so
 * a run whose encodings would differ from the slot's (its {@code -D}, or a C library locale other
 * than the slot's, from which a new JVM derives them and its locale) is refused, and its client
 * starts a new JVM.
 */
final class StartupSettings implements RunStep {
    private static final List<String> ENCODINGS = List.of("file.encoding", "sun.jnu.encoding", "native.encoding",
            "stdout.encoding", "stderr.encoding", "sun.stdout.encoding", "sun.stderr.encoding");
    private static final Pattern SIZE = Pattern.compile("([0-9]{1,12})([kKmMgGtT]?)");
    /** Smaller -Xss values go to a new JVM, which may well refuse them (its minimum depends on the JDK). */
    private static final long MIN_STACK = 256 * 1024;

    private final String slotLocale = Native.nativeLocale();
    private final Properties slotProperties;
    private final RunTimeZone timeZones = new RunTimeZone();
    private final ResourceLimits limits = new ResourceLimits();
    private int slotUmask = -1;

    /** {@code slotProperties}: the slot JVM's own system properties. */
    StartupSettings(Properties slotProperties) {
        this.slotProperties = slotProperties;
    }

    /** What a run gets; {@code stackSize} 0 is the JVM's default. */
    record Plan(TimeZone zone, RunLocale.Defaults locales, Map<String, Long> limits, int umask, long stackSize) {
    }

    /**
     * Decides what the run gets from its request and its properties; refuses one that needs a new
     * JVM. Null for a run that asks for the slot's own settings (its warm-up runs).
     */
    Plan plan(RunSpec spec, Properties runProperties) {
        StartupInputs inputs = spec.startup();
        if (inputs.equals(StartupInputs.SLOT) && spec.properties().isEmpty()) {
            return null;
        }
        String runLocale = String.join("\n", inputs.localeCtype(), inputs.localeMessages(), inputs.codeset());
        if (inputs.hasLocale() && !runLocale.equals(slotLocale)) {
            throw new Refused("the run's C library locale (" + runLocale.replace('\n', ' ') + ") is not the slot's ("
                    + slotLocale.replace('\n', ' ') + "); a new JVM derives its locale and encodings from it");
        }
        for (String name : ENCODINGS) {
            String given = spec.properties().get(name);
            if (given != null && !sameCharset(given, slotProperties.getProperty(name))) {
                throw new Refused("-D" + name + "=" + given + " is not the slot's encoding ("
                        + slotProperties.getProperty(name) + "), which the JDK fixes at start-up");
            }
        }
        return new Plan(timeZones.of(spec.properties(), spec.environment()), RunLocale.of(runProperties),
                ResourceLimits.changes(inputs.limits()), inputs.umask(), stackSize(inputs.stackSize()));
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
    }

    @Override
    public String restore(RunEnd end) {
        if (slotUmask >= 0) {
            Native.umask(slotUmask);
            slotUmask = -1;
        }
        List<String> failed = new ArrayList<>();
        limits.restore().forEach(name -> failed.add("resource limit " + name));
        return failed.isEmpty() ? null : "run " + end.id() + " changed start-up settings that cannot be put back: " + failed;
    }

    private static boolean sameCharset(String given, String slot) {
        try {
            return slot != null && Charset.forName(given).equals(Charset.forName(slot));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static long stackSize(String text) {
        if (text.isEmpty()) {
            return 0;
        }
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw new Refused("-Xss" + text + " is no size; only a new JVM can report that");
        }
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        int shift = unit.isEmpty() ? 0 : 10 * ("kmgt".indexOf(unit) + 1);
        long value = Long.parseLong(m.group(1));
        if (value > Long.MAX_VALUE >> shift) {
            throw new Refused("-Xss" + text + " is too large; only a new JVM can report that");
        }
        long size = value << shift;
        if (size < MIN_STACK) {
            throw new Refused("-Xss" + text + " is below what a slot takes (256k); only a new JVM knows its minimum");
        }
        return size;
    }
}
