package org.jvmreuse.pool.protocol;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run needs to behave exactly like {@code java -cp cp -Dprops main args} started in
 * {@code cwd}. {@code sharedClassPath} (a subset of the class path) names library entries whose
 * classes a slot may keep loaded, with their statics, across runs that share them.
 * {@code addOpens} and {@code addExports} ({@code module/package}) are what the run's
 * {@code --add-opens}/{@code --add-exports ...=ALL-UNNAMED} options ask of the slot's JVM, which
 * it can only check, not change: the slot refuses the run before it starts when one is not met.
 * {@code startup} is what a new JVM would take from the process starting it (umask, limits, locale).
 */
public record RunSpec(String mainClass, List<String> classPath, List<String> sharedClassPath, List<String> args,
                      Map<String, String> properties, Map<String, String> environment, String cwd,
                      StreamPath stdin, StreamPath stdout, StreamPath stderr, RunKind kind, List<String> addOpens,
                      List<String> addExports, StartupInputs startup) {

    /**
     * The run a {@code run} request asks for, with its {@code java} command line read already
     * ({@code command}, which only a slot can take: {@link JavaCommandLine#unsupported} is null).
     * Without {@code -cp} the class path is the run's {@code CLASSPATH}, else the working directory.
     */
    public static RunSpec fromFrame(Frame frame, JavaCommandLine command) throws ProtocolException {
        frame.require(ControlWire.JAVA_ARG);
        String cwd = frame.require(ControlWire.CWD);
        if (!cwd.startsWith("/")) {
            throw new ProtocolException("cwd must be an absolute path, got '" + cwd + "'");
        }
        Map<String, String> environment = pairs(frame.getAll(ControlWire.ENV), ControlWire.ENV);
        String given = command.classPath() != null ? command.classPath() : environment.getOrDefault("CLASSPATH", "");
        List<String> classPath = absolutePaths(given.isEmpty() ? "." : given, cwd);
        String sharedGiven = frame.get(ControlWire.SHARED_CP);
        List<String> shared = sharedGiven == null || sharedGiven.isEmpty() ? List.of() : absolutePaths(sharedGiven, cwd);
        if (!classPath.containsAll(shared)) {
            List<String> extra = new ArrayList<>(shared);
            extra.removeAll(classPath);
            throw new ProtocolException("shared_cp entries must also be on the class path; not on it: " + extra);
        }
        return new RunSpec(command.mainClass(), classPath, shared, command.args(), command.properties(), environment, cwd,
                StreamPath.fromFrame(frame, ControlWire.STDIN, ControlWire.STDIN_KEY), StreamPath.fromFrame(frame, ControlWire.STDOUT, ControlWire.STDOUT_KEY),
                StreamPath.fromFrame(frame, ControlWire.STDERR, ControlWire.STDERR_KEY), RunKind.parse(frame.get(ControlWire.KIND)),
                command.addOpens(), command.addExports(), StartupInputs.fromFrame(frame, command));
    }

    /**
     * Class-path entries made absolute against {@code cwd}, as java resolves them: an empty entry
     * or "." is the working directory; a wildcard entry ({@code lib/*}) stays a wildcard.
     */
    private static List<String> absolutePaths(String classPath, String cwd) {
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(":", -1)) {
            entries.add(entry.isEmpty() || entry.equals(".") ? cwd : entry.startsWith("/") ? entry : cwd + "/" + entry);
        }
        return entries;
    }

    private static Map<String, String> pairs(List<String> values, String what) throws ProtocolException {
        Map<String, String> map = new LinkedHashMap<>();
        for (String value : values) {
            int eq = value.indexOf('=');
            if (eq <= 0) {
                throw new ProtocolException("malformed " + what + " '" + value + "': expected NAME=VALUE");
            }
            map.put(value.substring(0, eq), value.substring(eq + 1));
        }
        return map;
    }

    /** Binary form sent from the manager to a slot over MPI. */
    public byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            writeString(out, mainClass);
            writeList(out, classPath);
            writeList(out, sharedClassPath);
            writeList(out, args);
            writeMap(out, properties);
            writeMap(out, environment);
            writeString(out, cwd);
            writeStream(out, stdin);
            writeStream(out, stdout);
            writeStream(out, stderr);
            writeString(out, kind.name());
            writeList(out, addOpens);
            writeList(out, addExports);
            writeString(out, startup.stackSize());
            out.writeInt(startup.umask());
            writeList(out, startup.limits());
            writeString(out, startup.localeCtype());
            writeString(out, startup.localeMessages());
            writeString(out, startup.codeset());
            writeList(out, startup.vmArguments());
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RunSpec decode(byte[] data) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
        return new RunSpec(readString(in), readList(in), readList(in), readList(in), readMap(in), readMap(in),
                readString(in), readStream(in), readStream(in), readStream(in), RunKind.valueOf(readString(in)),
                readList(in), readList(in), new StartupInputs(readString(in), in.readInt(), readList(in),
                readString(in), readString(in), readString(in), readList(in)));
    }

    // Length-prefixed UTF-8 rather than writeUTF, which stops at 64 KiB (a long env value).
    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void writeStream(DataOutputStream out, StreamPath stream) throws IOException {
        writeString(out, stream.path());
        out.writeBoolean(stream.key() != null);
        if (stream.key() != null) {
            out.writeLong(stream.key().device());
            out.writeLong(stream.key().inode());
        }
    }

    private static StreamPath readStream(DataInputStream in) throws IOException {
        String path = readString(in);
        return new StreamPath(path, in.readBoolean() ? new FileKey(in.readLong(), in.readLong()) : null);
    }

    private static void writeList(DataOutputStream out, List<String> list) throws IOException {
        out.writeInt(list.size());
        for (String s : list) {
            writeString(out, s);
        }
    }

    private static List<String> readList(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<String> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(readString(in));
        }
        return list;
    }

    private static void writeMap(DataOutputStream out, Map<String, String> map) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            writeString(out, e.getKey());
            writeString(out, e.getValue());
        }
    }

    private static Map<String, String> readMap(DataInputStream in) throws IOException {
        int n = in.readInt();
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            map.put(readString(in), readString(in));
        }
        return map;
    }
}
