package org.jvmreuse.pool.manager;

import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.SocketChannel;

import java.util.List;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.jvmreuse.pool.PoolLog;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.protocol.FrameChannel;
import org.jvmreuse.pool.protocol.ProtocolException;
import org.jvmreuse.pool.protocol.RunSpec;

/**
 * One control connection: checks who is on the other end, reads one request, and for a run
 * keeps reading (signals, or the client disappearing) until the run's answer has been sent.
 * Replies are a few dozen bytes each, written straight to the socket by whichever thread
 * produces them; a client that stops reading cannot fill the socket buffer with them.
 */
final class ClientSession {
    private static final long DEFAULT_WAIT_MILLIS = 30_000;

    private final FrameChannel channel;
    private final PoolManager manager;
    private volatile boolean answered;

    ClientSession(SocketChannel channel, PoolManager manager) {
        this.channel = new FrameChannel(channel);
        this.manager = manager;
    }

    void serve() {
        try {
            String refusal = checkPeer();
            if (refusal != null) {
                PoolLog.get().warn("refused a control connection: " + refusal);
                send(new Frame("error").add("message", refusal), true);
                return;
            }
            Frame request = channel.read();
            switch (request.type()) {
                case "run" -> serveRun(request);
                case "status" -> sendLines(manager.status());
                // Answer first: a stop can close the control server, and with it this connection, at once.
                case "drain" -> {
                    send(new Frame("ok").add("message", "pool is draining: running programs finish, new ones go elsewhere"), true);
                    manager.drain();
                }
                case "stop" -> {
                    send(new Frame("ok").add("message", "pool is stopping"), true);
                    manager.stop("1".equals(request.get("now")));
                }
                case "doorbell" -> {
                    manager.attachDoorbell(parseRank(request.require("rank")), request.get("key"), channel.channel());
                    return;
                }
                case "signal" -> refuse("'signal' is only valid on the connection of a running 'run'");
                default -> refuse("unknown request type '" + request.type() + "'");
            }
        } catch (ProtocolException e) {
            refuse(e.getMessage());
        } catch (EOFException e) {
            channel.close();
        } catch (IOException e) {
            PoolLog.get().warn("control connection failed: " + e);
            channel.close();
        }
    }

    private String checkPeer() throws IOException {
        UnixDomainPrincipal peer = channel.channel().getOption(ExtendedSocketOptions.SO_PEERCRED);
        String owner = System.getProperty("user.name");
        if (!peer.user().getName().equals(owner)) {
            return "user " + peer.user().getName() + " may not use this pool: it runs programs only for its owner, " + owner;
        }
        return null;
    }

    private void serveRun(Frame request) throws ProtocolException {
        RunSpec spec = RunSpec.fromFrame(request);
        long waitMillis = parseWait(request.get("wait_ms"));
        for (String ignored : request.getAll("ignored_opt")) {
            PoolLog.get().info("run of " + spec.mainClass() + ": JVM option " + ignored + " ignored (fixed at pool start)");
        }
        PoolRun run = manager.newRun(spec, waitMillis, this);
        manager.submit(run);
        while (!answered) {
            Frame frame;
            try {
                frame = channel.read();
            } catch (IOException | ProtocolException e) {
                if (!answered) {
                    manager.clientGone(run);
                }
                return;
            }
            if ("signal".equals(frame.type())) {
                try {
                    manager.signal(run, Integer.parseInt(frame.require("sig")));
                } catch (NumberFormatException e) {
                    PoolLog.get().warn("ignoring signal frame with a bad number: " + frame.get("sig"));
                }
            } else {
                PoolLog.get().warn("ignoring '" + frame.type() + "' sent during a run");
            }
        }
    }

    private static int parseRank(String text) throws ProtocolException {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new ProtocolException("rank must be a number, got '" + text + "'");
        }
    }

    private static long parseWait(String text) throws ProtocolException {
        if (text == null || text.isEmpty()) {
            return DEFAULT_WAIT_MILLIS;
        }
        try {
            long value = Long.parseLong(text);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new ProtocolException("wait_ms must be a whole number of milliseconds >= 0, got '" + text + "'");
    }

    private void refuse(String message) {
        send(new Frame("error").add("message", message), true);
    }

    private void sendLines(List<String> lines) {
        Frame frame = new Frame("status");
        lines.forEach(line -> frame.add("line", line));
        send(frame, true);
    }

    void queued(int position) {
        send(new Frame("queued").add("position", position), false);
    }

    void started(int slot, int rank, long pid, boolean reuse) {
        send(new Frame("started").add("slot", slot).add("rank", rank).add("pid", pid).add("reuse", reuse ? 1 : 0), false);
    }

    void exit(int code, String message) {
        Frame frame = new Frame("exit").add("code", code);
        if (!message.isEmpty()) {
            frame.add("message", message);
        }
        send(frame, true);
    }

    void fallback(String reason) {
        send(new Frame("fallback").add("reason", reason), true);
    }

    /** Writes a reply; a final one closes the connection after it. */
    private void send(Frame frame, boolean last) {
        if (last) {
            answered = true;
        }
        try {
            channel.write(frame);
        } catch (IOException e) {
            PoolLog.get().warn("could not send '" + frame.type() + "' to a client: " + e);
        }
        if (last) {
            channel.close();
        }
    }
}
