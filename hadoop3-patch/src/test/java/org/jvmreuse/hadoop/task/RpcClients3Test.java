package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.jvmreuse.hadoop3.task.job.Rpc2Clients;

/**
 * On Hadoop 3.x, in a slot in this JVM (HadoopRuns): the RPC client a run's NameNode proxy left
 * in ProtobufRpcEngine2's cache is not the next run's (kept, it would send the next run's calls
 * with its client id and call ids from 0 again, which a NameNode's retry cache answers with the
 * earlier run's results).
 */
class RpcClients3Test {
    @Test
    void theNextRunFindsNoProtobufRpcClientOfAnEarlierRun() throws Exception {
        assertEquals("1", HadoopRuns.run(Rpc2Clients.class, "make").printed("clients"));
        assertEquals("0", HadoopRuns.run(Rpc2Clients.class).printed("clients"));
    }
}
