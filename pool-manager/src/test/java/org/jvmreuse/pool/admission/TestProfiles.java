package org.jvmreuse.pool.admission;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Slot profiles written out by hand, as a slot of a known start would report them. */
public final class TestProfiles {
    public static final long HEAP = 256L << 20;
    public static final String LOCALE = "C.UTF-8\nC.UTF-8\nUTF-8";
    private static final StartAccess NO_START_ACCESS = new StartAccess(Set.of(), Set.of());

    private TestProfiles() {
    }

    /** A slot with a 256 MB heap, the C.UTF-8 locale, a few limits and a few JDK packages. */
    public static SlotProfile slot() {
        return withHeap(HEAP);
    }

    public static SlotProfile withHeap(long heapBytes) {
        return of(heapBytes, "", NO_START_ACCESS);
    }

    /** A slot started with {@code TZ} set to {@code tz} ("" for none). */
    public static SlotProfile withTz(String tz) {
        return of(HEAP, tz, NO_START_ACCESS);
    }

    /** A slot whose start options gave unnamed modules {@code access}. */
    public static SlotProfile withStartAccess(StartAccess access) {
        return of(HEAP, "", access);
    }

    /** A slot started with the {@code -D}s {@code startProperties} that the JDK reads once. */
    public static SlotProfile withStartProperties(Map<String, String> startProperties) {
        return of(HEAP, "", NO_START_ACCESS, startProperties);
    }

    private static SlotProfile of(long heapBytes, String tz, StartAccess access) {
        return of(heapBytes, tz, access, Map.of());
    }

    private static SlotProfile of(long heapBytes, String tz, StartAccess access, Map<String, String> startProperties) {
        Map<String, ResourceLimit> limits = new LinkedHashMap<>();
        limits.put("cpu", new ResourceLimit(-1, -1));
        limits.put("nofile", new ResourceLimit(4096, 4096)); // HotSpot raises the soft limit to the hard one
        limits.put("core", new ResourceLimit(0, -1));
        return new SlotProfile("17.0.99-test", heapBytes, LOCALE, Map.of("file.encoding", "UTF-8"), limits, tz, false,
                Set.of("java.base/java.lang", "java.base/java.util", "java.sql/java.sql"), access, startProperties);
    }
}
