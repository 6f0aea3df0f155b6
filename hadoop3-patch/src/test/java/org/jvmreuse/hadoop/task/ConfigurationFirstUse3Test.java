package org.jvmreuse.hadoop.task;

/**
 * ConfigurationFirstUseTest on Hadoop 3.x, where YARN's configuration also registers
 * deprecations: each run sees YARN's and HDFS's registrations from its own first use on, as a new JVM.
 */
class ConfigurationFirstUse3Test extends ConfigurationFirstUseTest {
}
