package org.jvmreuse.hadoop.task.job;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtocolSignature;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.VersionedProtocol;
import org.apache.hadoop.yarn.webapp.WebApp;
import org.apache.hadoop.yarn.webapp.WebApps;

/**
 * Serves, as an application master does, an RPC server ({@code args[0]} "rpc") or a web app
 * ("webapp") on a free port, writes the port to the file {@code args[1]}, and waits to be ended.
 */
public final class Serves {
    /** A protocol with nothing to call. */
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

    public static void main(String[] args) throws Exception {
        int port;
        if (args[0].equals("rpc")) {
            RPC.Server server = new RPC.Builder(new Configuration()).setProtocol(Ping.class).setInstance(new Pong())
                    .setBindAddress("127.0.0.1").setPort(0).setNumHandlers(2).build();
            server.start();
            port = server.getListenerAddress().getPort();
        } else {
            port = WebApps.$for("test", new Object()).at(0).start(new WebApp() {
                @Override
                public void setup() {
                }
            }).port();
        }
        Files.writeString(Path.of(args[1]), Integer.toString(port));
        Thread.sleep(Long.MAX_VALUE);
    }
}
