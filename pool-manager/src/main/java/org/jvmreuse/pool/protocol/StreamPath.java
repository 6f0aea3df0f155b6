package org.jvmreuse.pool.protocol;

/**
 * A path a slot opens as a run's stdin, stdout or stderr. {@code key} is the file the client's
 * own descriptor names when the client hands its stream directly as {@code /proc/<pid>/fd/N}:
 * the slot checks that the path led it to that file, since in another PID namespace the same
 * pid is another process. Null when there is nothing to check (/dev/null, a FIFO the client
 * relays, an older client).
 */
public record StreamPath(String path, FileKey key) {
    public static StreamPath unchecked(String path) {
        return new StreamPath(path, null);
    }

    /** Field {@code name} (its path, {@code /dev/null} when absent) and field {@code keyName}. */
    static StreamPath fromFrame(Frame frame, String name, String keyName) throws ProtocolException {
        String path = frame.get(name);
        String key = frame.get(keyName);
        return new StreamPath(path == null || path.isEmpty() ? "/dev/null" : path,
                key == null ? null : FileKey.parse(key, keyName));
    }
}
