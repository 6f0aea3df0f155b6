package org.jvmreuse.pool.slot.globals;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;

/**
 * MBeans a run registered in the platform MBean server are unregistered (an MBean of the run's
 * classes keeps its loader, and the next run's registration of the same name would fail); a
 * platform MBean the run unregistered cannot be made again, which retires the slot. MBean
 * servers the run created through MBeanServerFactory are released. The platform server is made
 * when the slot starts, so that each run finds it as it was before.
 */
final class PlatformMBeans implements GlobalState {
    private final MBeanServer platform = ManagementFactory.getPlatformMBeanServer();

    @Override
    public String name() {
        return "MBeans";
    }

    @Override
    public Snapshot capture() {
        Set<ObjectName> before = platform.queryNames(null, null);
        List<MBeanServer> servers = MBeanServerFactory.findMBeanServer(null);
        return runLoader -> {
            Set<MBeanServer> kept = Collections.newSetFromMap(new IdentityHashMap<>());
            kept.addAll(servers);
            for (MBeanServer server : MBeanServerFactory.findMBeanServer(null)) {
                if (!kept.contains(server)) {
                    MBeanServerFactory.releaseMBeanServer(server);
                }
            }
            Set<ObjectName> now = platform.queryNames(null, null);
            for (ObjectName name : now) {
                if (!before.contains(name)) {
                    try {
                        platform.unregisterMBean(name);
                    } catch (InstanceNotFoundException gone) {
                        // its own postDeregister or another unregistration took it already
                    } catch (JMException | RuntimeException e) {
                        return "cannot unregister the run's MBean " + name + ": " + e;
                    }
                }
            }
            List<ObjectName> missing = new ArrayList<>(before);
            missing.removeAll(now);
            return missing.isEmpty() ? null : "the run unregistered MBean(s) " + missing;
        };
    }
}
