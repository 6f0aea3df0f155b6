package org.jvmreuse.pool.admission;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jvmreuse.pool.os.Native;

/**
 * What a slot was started with and a run cannot change, as the slot reports it at HELLO: its JDK,
 * its heap, the C library's locale and the encodings the JDK fixed from it, its resource limits,
 * where its time zone came from, the packages of its JVM's modules (what {@code --add-opens}
 * can name), the access to them its start options gave every unnamed module ({@link StartAccess})
 * and the system properties it was started with that the JDK reads once ({@link StartProperties}).
 * The manager admits a run against it ({@link Admission}) before it picks a slot, and
 * the slot applies a run with the same rules.
 */
public record SlotProfile(String jdk, long maxHeapBytes, String locale, Map<String, String> encodings,
                          Map<String, ResourceLimit> limits, String tz, boolean zoneFromOption,
                          Set<String> modulePackages, StartAccess startAccess, Map<String, String> startProperties) {
    /** The system properties the JDK fixes at start-up from the C library's locale or its options. */
    public static final List<String> ENCODINGS = List.of("file.encoding", "sun.jnu.encoding", "native.encoding",
            "stdout.encoding", "stderr.encoding", "sun.stdout.encoding", "sun.stderr.encoding");

    /** This JVM's profile; {@code startProperties}: its system properties as it started. */
    public static SlotProfile ofThisJvm(Properties startProperties) {
        Map<String, String> encodings = new LinkedHashMap<>();
        for (String name : ENCODINGS) {
            String value = startProperties.getProperty(name);
            if (value != null) {
                encodings.put(name, value);
            }
        }
        Map<String, ResourceLimit> limits = new LinkedHashMap<>();
        for (String name : RunLimits.NAMES) {
            long[] limit = Native.limit(name);
            if (limit != null) {
                limits.put(name, new ResourceLimit(limit[0], limit[1]));
            }
        }
        Set<String> packages = new TreeSet<>();
        for (Module module : ModuleLayer.boot().modules()) {
            module.getPackages().forEach(pkg -> packages.add(module.getName() + "/" + pkg));
        }
        boolean zoneFromOption = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(arg -> arg.startsWith("-Duser.timezone="));
        return new SlotProfile(Runtime.version().toString(), maxHeap(), Native.nativeLocale(), encodings, limits,
                System.getenv().getOrDefault("TZ", ""), zoneFromOption, packages, StartAccess.ofThisJvm(),
                StartProperties.of(startProperties));
    }

    /** -Xmx as given (the heap a run asks for is compared with it), not the usable part maxMemory() reports. */
    private static long maxHeap() {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        return hotSpot == null ? Runtime.getRuntime().maxMemory()
                : Long.parseLong(hotSpot.getVMOption("MaxHeapSize").getValue());
    }

    public void writeTo(DataOutputStream out) throws IOException {
        out.writeUTF(jdk);
        out.writeLong(maxHeapBytes);
        out.writeUTF(locale);
        out.writeInt(encodings.size());
        for (Map.Entry<String, String> e : encodings.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
        out.writeInt(limits.size());
        for (Map.Entry<String, ResourceLimit> e : limits.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeLong(e.getValue().soft());
            out.writeLong(e.getValue().hard());
        }
        out.writeUTF(tz);
        out.writeBoolean(zoneFromOption);
        out.writeInt(modulePackages.size());
        for (String name : modulePackages) {
            out.writeUTF(name);
        }
        startAccess.writeTo(out);
        out.writeInt(startProperties.size());
        for (Map.Entry<String, String> e : startProperties.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
    }

    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            writeTo(new DataOutputStream(bytes));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static SlotProfile readFrom(DataInputStream in) throws IOException {
        String jdk = in.readUTF();
        long heap = in.readLong();
        String locale = in.readUTF();
        Map<String, String> encodings = new LinkedHashMap<>();
        for (int n = in.readInt(); n > 0; n--) {
            encodings.put(in.readUTF(), in.readUTF());
        }
        Map<String, ResourceLimit> limits = new LinkedHashMap<>();
        for (int n = in.readInt(); n > 0; n--) {
            limits.put(in.readUTF(), new ResourceLimit(in.readLong(), in.readLong()));
        }
        String tz = in.readUTF();
        boolean zoneFromOption = in.readBoolean();
        Set<String> packages = new TreeSet<>();
        for (int n = in.readInt(); n > 0; n--) {
            packages.add(in.readUTF());
        }
        StartAccess access = StartAccess.readFrom(in);
        Map<String, String> properties = new TreeMap<>();
        for (int n = in.readInt(); n > 0; n--) {
            properties.put(in.readUTF(), in.readUTF());
        }
        return new SlotProfile(jdk, heap, locale, encodings, limits, tz, zoneFromOption, packages, access, properties);
    }

    /** What differs between this profile and {@code other}, for a slot that was started otherwise than its pool's others. */
    public String differences(SlotProfile other) {
        StringBuilder diff = new StringBuilder();
        note(diff, "JDK", jdk, other.jdk);
        note(diff, "heap", maxHeapBytes, other.maxHeapBytes);
        note(diff, "locale", locale.replace('\n', ' '), other.locale.replace('\n', ' '));
        note(diff, "encodings", encodings, other.encodings);
        note(diff, "resource limits", limits, other.limits);
        note(diff, "TZ", tz, other.tz);
        note(diff, "-Duser.timezone", zoneFromOption, other.zoneFromOption);
        if (!modulePackages.equals(other.modulePackages)) {
            diff.append(diff.isEmpty() ? "" : "; ").append("the JDK's module packages");
        }
        note(diff, "module access from the start", startAccess, other.startAccess);
        note(diff, "system properties read once", startProperties, other.startProperties);
        return diff.toString();
    }

    private static void note(StringBuilder diff, String what, Object mine, Object theirs) {
        if (!mine.equals(theirs)) {
            diff.append(diff.isEmpty() ? "" : "; ").append(what).append(' ').append(theirs).append(" (the pool's: ")
                    .append(mine).append(')');
        }
    }
}
