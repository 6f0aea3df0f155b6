package org.jvmreuse.pool.manager;

import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.jvmreuse.pool.common.PoolLog;
import org.jvmreuse.pool.os.CurrentUser;
import org.jvmreuse.pool.protocol.ControlWire;
import org.jvmreuse.pool.protocol.Frame;
import org.jvmreuse.pool.protocol.JavaCommandLine;
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

    /** The signals a client may forward (docs/protocol.md); any other number could forge an exit status. */
    private static final Set<Integer> FORWARDED_SIGNALS = Set.of(1, 2, 3, 9, 15);

    private final FrameChannel channel;
    private final PoolManager manager;
    private volatile boolean answered;
    /** Set by whichever comes first: the request, or its deadline. */
    private final AtomicBoolean requestSettled = new AtomicBoolean();

    ClientSession(SocketChannel channel, PoolManager manager) {
        this.channel = new FrameChannel(channel);
        this.manager = manager;
    }

    /** Serves the connection; unless its request is complete within {@code requestMillis}, it is answered {@code fallback}. */
    void serve(ScheduledExecutorService deadlines, long requestMillis) {
        ScheduledFuture<?> deadline = deadlines.schedule(() -> expire(requestMillis), requestMillis, TimeUnit.MILLISECONDS);
        Frame request;
        try {
            String refusal = checkPeer();
            if (refusal != null) {
                if (settle(deadline)) {
                    PoolLog.get().warn("refused a control connection: " + refusal);
                    send(new Frame(ControlWire.ERROR).add(ControlWire.MESSAGE, refusal), true);
                }
                return;
            }
            request = channel.read();
        } catch (ProtocolException e) {
            if (settle(deadline)) {
                refuse(e.getMessage());
            }
            return;
        } catch (IOException e) {
            if (settle(deadline) && !(e instanceof EOFException)) {
                PoolLog.get().warn("control connection failed: " + e);
            }
            channel.close();
            return;
        }
        if (settle(deadline)) {
            handle(request);
        }
    }

    /** True for whichever of the request and its deadline comes first. */
    private boolean settle(ScheduledFuture<?> deadline) {
        deadline.cancel(false);
        return requestSettled.compareAndSet(false, true);
    }

    private void handle(Frame request) {
        try {
            switch (request.type()) {
                case ControlWire.RUN -> serveRun(request);
                case ControlWire.STATUS -> {
                    String format = request.get(ControlWire.FORMAT);
                    if (format == null) {
                        sendLines(manager.status());
                    } else if (format.equals(ControlWire.JSON)) {
                        send(new Frame(ControlWire.STATUS).add(ControlWire.JSON, manager.statusJson()), true);
                    } else {
                        refuse("unknown status format '" + format + "' (only json)");
                    }
                }
                // Drained before the answer: a client that has its "ok" sees no replacement or launch after it.
                case ControlWire.DRAIN -> {
                    manager.drain();
                    send(new Frame(ControlWire.OK).add(ControlWire.MESSAGE, "pool is draining: running programs finish, new ones go elsewhere"), true);
                }
                // Answer first: a stop can close the control server, and with it this connection, at once.
                case ControlWire.STOP -> {
                    send(new Frame(ControlWire.OK).add(ControlWire.MESSAGE, "pool is stopping"), true);
                    manager.stop("1".equals(request.get(ControlWire.NOW)));
                }
                case ControlWire.DOORBELL -> {
                    manager.attachDoorbell(parseRank(request.require(ControlWire.RANK)), request.get(ControlWire.KEY), channel.channel());
                    return;
                }
                case ControlWire.SIGNAL -> refuse("'signal' is only valid on the connection of a running 'run'");
                default -> refuse("unknown request type '" + request.type() + "'");
            }
        } catch (ProtocolException e) {
            refuse(e.getMessage());
        } catch (IOException e) {
            PoolLog.get().warn("control connection failed: " + e);
            channel.close();
        }
    }

    /** The request did not arrive in time: the client (stopped, or hostile) gets a new JVM and the thread goes free. */
    private void expire(long requestMillis) {
        if (requestSettled.compareAndSet(false, true)) {
            PoolLog.get().warn("a control connection sent no complete request within " + requestMillis + " ms; closed");
            fallback("the request did not arrive within " + requestMillis + " ms");
        }
    }

    /** Compared by uid (principals of one uid are equal), never by name: two names can share a uid. */
    private String checkPeer() throws IOException {
        UnixDomainPrincipal peer = channel.channel().getOption(ExtendedSocketOptions.SO_PEERCRED);
        UserPrincipal owner = Files.getOwner(Path.of("/proc/self"));
        if (!peer.user().equals(owner)) {
            return "user " + peer.user().getName() + " may not use this pool: it runs programs only for its owner, "
                    + owner.getName() + " (uid " + CurrentUser.uid() + ")";
        }
        return null;
    }

    private void serveRun(Frame request) throws ProtocolException {
        JavaCommandLine command = JavaCommandLine.parse(request.getAll(ControlWire.JAVA_ARG));
        RunSpec spec = RunSpec.fromFrame(request, command);
        long waitMillis = parseWait(request.get(ControlWire.WAIT_MS));
        for (String fixed : command.fixedOptions()) {
            PoolLog.get().info("run of " + spec.mainClass() + ": JVM option " + fixed + " ignored (fixed at pool start)");
        }
        PoolRun run = manager.newRun(spec, command, waitMillis, this);
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
            if (ControlWire.SIGNAL.equals(frame.type())) {
                Integer sig = forwardedSignal(frame.get(ControlWire.SIG));
                if (sig != null) {
                    manager.signal(run, sig);
                } else {
                    PoolLog.get().warn("ignoring a signal frame with sig=" + frame.get(ControlWire.SIG) + ": only "
                            + new TreeSet<>(FORWARDED_SIGNALS) + " are forwarded");
                }
            } else if (ControlWire.CANCEL.equals(frame.type())) {
                manager.cancel(run);
            } else {
                PoolLog.get().warn("ignoring '" + frame.type() + "' sent during a run");
            }
        }
    }

    /** The signal number, if it is one the protocol forwards; else null. */
    private static Integer forwardedSignal(String text) {
        try {
            int sig = Integer.parseInt(text == null ? "" : text);
            return FORWARDED_SIGNALS.contains(sig) ? sig : null;
        } catch (NumberFormatException e) {
            return null;
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
        send(new Frame(ControlWire.ERROR).add(ControlWire.MESSAGE, message), true);
    }

    private void sendLines(List<String> lines) {
        Frame frame = new Frame(ControlWire.STATUS);
        lines.forEach(line -> frame.add(ControlWire.LINE, line));
        send(frame, true);
    }

    void queued(int position) {
        send(new Frame(ControlWire.QUEUED).add(ControlWire.POSITION, position), false);
    }

    /** {@code ignored}: the run's JVM options fixed when the pool started, which the client names with -v. */
    void started(int slot, int rank, long pid, boolean reuse, List<String> ignored) {
        Frame frame = new Frame(ControlWire.STARTED).add(ControlWire.SLOT, slot).add(ControlWire.RANK, rank)
                .add(ControlWire.PID, pid).add(ControlWire.REUSE, reuse ? 1 : 0);
        ignored.forEach(option -> frame.add(ControlWire.IGNORED, option));
        send(frame, false);
    }

    void exit(int code, String message) {
        Frame frame = new Frame(ControlWire.EXIT).add(ControlWire.CODE, code);
        if (!message.isEmpty()) {
            frame.add(ControlWire.MESSAGE, message);
        }
        send(frame, true);
    }

    void fallback(String reason) {
        send(new Frame(ControlWire.FALLBACK).add(ControlWire.REASON, reason), true);
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
