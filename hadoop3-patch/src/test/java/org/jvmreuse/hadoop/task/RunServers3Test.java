package org.jvmreuse.hadoop.task;

/**
 * RunServersTest on Hadoop 3.x, whose AM web apps run on Jetty 9 (2.2's on Jetty 6): an RPC server
 * and a web app that a run left serving are stopped with it, their ports free again.
 */
class RunServers3Test extends RunServersTest {
}
