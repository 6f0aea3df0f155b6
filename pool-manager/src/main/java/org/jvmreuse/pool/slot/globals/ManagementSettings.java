package org.jvmreuse.pool.slot.globals;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Settings of the platform MXBeans a run can flip: thread CPU time, contention and allocated
 * memory monitoring, verbose GC and class loading output, memory pools' usage and collection
 * usage thresholds, and the VM's manageable options (HotSpotDiagnosticMXBean.setVMOption). The
 * options are read when the slot starts and compared after each run (a dozen reads, kept off
 * the path before a run); the rest is read before each run. Logger levels set through
 * PlatformLoggingMXBean are java.util.logging's and go back with it.
 */
final class ManagementSettings implements GlobalState {
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.ThreadMXBean hotspotThreads =
            threads instanceof com.sun.management.ThreadMXBean t ? t : null;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final ClassLoadingMXBean classLoading = ManagementFactory.getClassLoadingMXBean();
    private final List<MemoryPoolMXBean> usagePools = new ArrayList<>();
    private final List<MemoryPoolMXBean> collectionPools = new ArrayList<>();
    private final HotSpotDiagnosticMXBean diagnostic = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    private final Map<String, String> options = new HashMap<>();

    ManagementSettings() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.isUsageThresholdSupported()) {
                usagePools.add(pool);
            }
            if (pool.isCollectionUsageThresholdSupported()) {
                collectionPools.add(pool);
            }
        }
        if (diagnostic != null) {
            for (VMOption option : diagnostic.getDiagnosticOptions()) {
                options.put(option.getName(), option.getValue());
            }
        }
    }

    @Override
    public String name() {
        return "platform MXBean settings";
    }

    @Override
    public Snapshot capture() {
        boolean cpuTime = threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled();
        boolean contention = threads.isThreadContentionMonitoringSupported() && threads.isThreadContentionMonitoringEnabled();
        boolean allocated = hotspotThreads != null && hotspotThreads.isThreadAllocatedMemorySupported()
                && hotspotThreads.isThreadAllocatedMemoryEnabled();
        boolean verboseGc = memory.isVerbose();
        boolean verboseClasses = classLoading.isVerbose();
        long[] usage = new long[usagePools.size()];
        for (int i = 0; i < usage.length; i++) {
            usage[i] = usagePools.get(i).getUsageThreshold();
        }
        long[] collection = new long[collectionPools.size()];
        for (int i = 0; i < collection.length; i++) {
            collection[i] = collectionPools.get(i).getCollectionUsageThreshold();
        }
        return runLoader -> {
            if (threads.isThreadCpuTimeSupported() && threads.isThreadCpuTimeEnabled() != cpuTime) {
                threads.setThreadCpuTimeEnabled(cpuTime);
            }
            if (threads.isThreadContentionMonitoringSupported() && threads.isThreadContentionMonitoringEnabled() != contention) {
                threads.setThreadContentionMonitoringEnabled(contention);
            }
            if (hotspotThreads != null && hotspotThreads.isThreadAllocatedMemorySupported()
                    && hotspotThreads.isThreadAllocatedMemoryEnabled() != allocated) {
                hotspotThreads.setThreadAllocatedMemoryEnabled(allocated);
            }
            if (memory.isVerbose() != verboseGc) {
                memory.setVerbose(verboseGc);
            }
            if (classLoading.isVerbose() != verboseClasses) {
                classLoading.setVerbose(verboseClasses);
            }
            for (int i = 0; i < usage.length; i++) {
                if (usagePools.get(i).getUsageThreshold() != usage[i]) {
                    usagePools.get(i).setUsageThreshold(usage[i]);
                }
            }
            for (int i = 0; i < collection.length; i++) {
                if (collectionPools.get(i).getCollectionUsageThreshold() != collection[i]) {
                    collectionPools.get(i).setCollectionUsageThreshold(collection[i]);
                }
            }
            return restoreOptions();
        };
    }

    private String restoreOptions() {
        if (diagnostic == null) {
            return null;
        }
        for (Map.Entry<String, String> option : options.entrySet()) {
            String name = option.getKey();
            String was = option.getValue();
            if (!was.equals(diagnostic.getVMOption(name).getValue())) { // one flag: listing them all costs ~1 ms
                try {
                    diagnostic.setVMOption(name, was);
                } catch (RuntimeException e) {
                    return "cannot set VM option " + name + " back to " + was + ": " + e.getMessage();
                }
            }
        }
        return null;
    }
}
