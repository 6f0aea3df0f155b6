package org.jvmreuse.hadoop.audit;

/**
 * Why a mutable static may outlive a run: the reasons the AM statics audits of every Hadoop
 * version (AppMasterStaticsAuditTest on 2.2, hadoop3-patch's AppMasterStaticsAudit3Test) share.
 */
public final class HarmlessReasons {
    public static final String CONSTANT_ARRAY = "a constant array nothing writes to";
    public static final String IMMUTABLE_PERMISSION = "FsPermission.createImmutable";
    public static final String NODE_MANAGER_PERMISSION = "a constant permission of the NodeManager's localizer";
    public static final String NOT_FINAL = "a constant without 'final': nothing assigns it";
    public static final String PRIORITY = "a Priority record made by the class initialiser, only read";
    public static final String REQUEST_LOCAL = "a ThreadLocal set and removed around each request on Jetty's threads,"
            + " which end with the run";
    public static final String STATE_MACHINE = "the state machine, built by the class initialiser and not changed"
            + " after installTopology(); its transitions keep no state of their own";

    private HarmlessReasons() {
    }
}
