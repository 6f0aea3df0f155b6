package org.jvmreuse.pool.protocol;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What a new JVM takes from the process that starts it rather than from its arguments, as the
 * client found it for a run (docs/protocol.md, "Start-up settings"): {@code -Xss} (empty when not
 * given), the umask (-1 when not sent), the resource limits ({@code name:soft:hard}, each
 * {@code unlimited} or a number), and the C library's locale for the run's environment (the names
 * of LC_CTYPE and LC_MESSAGES and the codeset; empty when not sent). Not sent means as the slot's,
 * which is what the slot's own warm-up runs have. {@code vmArguments}: the run's options as a new
 * JVM reports them ({@link JavaCommandLine#vmArguments}).
 */
public record StartupInputs(String stackSize, int umask, List<String> limits, String localeCtype,
                            String localeMessages, String codeset, List<String> vmArguments) {
    public static final StartupInputs SLOT = new StartupInputs("", -1, List.of(), "", "", "", List.of());
    private static final Pattern LIMIT = Pattern.compile("[a-z]+:(unlimited|[0-9]{1,19}):(unlimited|[0-9]{1,19})");

    /** {@code command}: the run's java command line, for its {@code -Xss} value and its options. */
    static StartupInputs fromFrame(Frame frame, JavaCommandLine command) throws ProtocolException {
        String umask = frame.get(ControlWire.UMASK);
        if (umask != null && !umask.matches("0?[0-7]{1,3}")) {
            throw new ProtocolException("malformed umask '" + umask + "': expected octal, such as 0022");
        }
        List<String> limits = frame.getAll(ControlWire.RLIMIT);
        for (String limit : limits) {
            if (!LIMIT.matcher(limit).matches()) {
                throw new ProtocolException("malformed rlimit '" + limit + "': expected NAME:SOFT:HARD");
            }
        }
        return new StartupInputs(command.stackSize(), umask == null ? -1 : Integer.parseInt(umask, 8), limits,
                orEmpty(frame.get(ControlWire.LC_CTYPE)), orEmpty(frame.get(ControlWire.LC_MESSAGES)), orEmpty(frame.get(ControlWire.CODESET)),
                command.vmArguments());
    }

    /** Whether the client sent the run's locale (older clients and warm-up runs do not). */
    public boolean hasLocale() {
        return !localeCtype.isEmpty();
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
