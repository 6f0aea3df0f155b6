package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.VersionedProtocol;
import org.apache.hadoop.yarn.webapp.WebApp;
import org.apache.hadoop.yarn.webapp.WebApps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * As an AM killed while its services stop: its servers are still serving when the run ends.
 * Without the reset, SlotRun would wait forever to join the IPC server's reader thread (it holds
 * its own monitor), hence the time limit.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunServersTest {
    public interface Ping extends VersionedProtocol {
        long versionID = 1L;
    }

    static final class Pong implements Ping {
        @Override
        public long getProtocolVersion(String protocol, long clientVersion) {
            return versionID;
        }

        @Override
        public ProtocolSignature getProtocolSignature(String protocol, long clientVersion, int hash) {
            return new ProtocolSignature(versionID, null);
        }
    }

    @Test
    void anRpcServerTheRunLeftRunningIsStoppedWithIt() throws Exception {
        assertStoppedWithTheRun(() -> {
            RPC.Server server = new RPC.Builder(new Configuration()).setProtocol(Ping.class).setInstance(new Pong())
                    .setBindAddress("127.0.0.1").setPort(0).setNumHandlers(2).build();
            server.start();
            return server.getListenerAddress().getPort();
        });
    }

    @Test
    void aWebAppTheRunLeftRunningIsStoppedWithIt() throws Exception {
        assertStoppedWithTheRun(() -> WebApps.$for("test", this).at(0).start(new WebApp() {
            @Override
            public void setup() {
            }
        }).port());
    }

    /**
     * The run ends, as by a kill, once it serves (an IPC server's reader thread would keep it going);
     * then the server's threads (which ignore interrupts, all SlotRun does to them) are gone, and
     * its port is free.
     */
    private static void assertStoppedWithTheRun(Callable<Integer> serve) throws Exception {
        AtomicInteger served = new AtomicInteger();
        CountDownLatch end = new CountDownLatch(1);
        new SlotRun(new RunLoader()).runUntil(end, () -> {
            served.set(serve.call());
            end.countDown();
            return null;
        });
        int port = served.get();
        List<String> left = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.matches(".*\\D" + port + "(\\D.*)?")).toList();
        assertEquals(List.of(), left, "threads of the run's server on port " + port);
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress(port));
        }
    }
}
