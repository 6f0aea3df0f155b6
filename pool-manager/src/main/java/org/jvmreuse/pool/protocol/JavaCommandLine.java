package org.jvmreuse.pool.protocol;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code java} command line (what follows {@code java}, as the client got it) read as the java
 * launcher reads it, up to the main class, for what a slot can honour: {@code -cp} (the last one),
 * {@code -D}, {@code -Xss} (the last one), {@code --add-opens}/{@code --add-exports
 * MODULE/PACKAGE=ALL-UNNAMED}, and options fixed when the pool started that do not change what a
 * program prints ({@code -Xmx}, {@code -Xms}, {@code -Xmn}, {@code -XX:} other than
 * {@code -XX:+Print...}, {@code -server}, {@code -client}: {@code fixedOptions}, which admission
 * still checks). Anything else, and anything {@code java} itself would reject, makes the run a
 * new JVM's ({@code unsupported} says why): the pool parses a run's command line once, here.
 * {@code vmArguments} are the options as a new JVM reports them ({@code RuntimeMXBean.getInputArguments}):
 * in order, without the class path and {@code -server}/{@code -client} (which only choose the VM),
 * {@code --add-opens VALUE} as {@code --add-opens=VALUE}.
 */
public record JavaCommandLine(String classPath, Map<String, String> properties, String stackSize,
                              List<String> fixedOptions, List<String> addOpens, List<String> addExports,
                              List<String> vmArguments, String mainClass, List<String> args, String unsupported) {

    public static JavaCommandLine parse(List<String> words) {
        Reader reader = new Reader(words);
        String unsupported = reader.options();
        return new JavaCommandLine(reader.classPath, reader.properties, reader.stackSize, reader.fixed, reader.opens,
                reader.exports, reader.vmArguments, reader.mainClass, reader.args, unsupported);
    }

    /** Options the launcher takes to choose the VM; the JVM does not report them among its arguments. */
    private static final List<String> VM_CHOICE = List.of("-server", "-client");

    private static final class Reader {
        private final List<String> words;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final List<String> fixed = new ArrayList<>();
        private final List<String> opens = new ArrayList<>();
        private final List<String> exports = new ArrayList<>();
        private final List<String> vmArguments = new ArrayList<>();
        private String classPath;
        private String stackSize = "";
        private String mainClass = "";
        private List<String> args = List.of();
        /** Why an --add-opens/--add-exports only a new JVM can take, when {@link #moduleOption} says -1. */
        private String moduleProblem;

        Reader(List<String> words) {
            this.words = words;
        }

        /** Reads the options, main class and arguments; returns why only a new JVM can take them, or null. */
        String options() {
            int i = 0;
            for (; i < words.size() && (words.get(i).startsWith("-") || words.get(i).startsWith("@")); i++) {
                String word = words.get(i);
                if (word.equals("-cp") || word.equals("-classpath") || word.equals("--class-path")) {
                    if (i + 1 >= words.size()) {
                        return "option " + word + " has no class path; only a new JVM can report that";
                    }
                    classPath = words.get(++i);
                } else if (word.startsWith("--class-path=")) {
                    classPath = word.substring("--class-path=".length());
                } else if (word.startsWith("-D") && word.length() > 2 && word.charAt(2) != '=') {
                    int eq = word.indexOf('=');
                    properties.put(eq < 0 ? word.substring(2) : word.substring(2, eq), eq < 0 ? "" : word.substring(eq + 1));
                    vmArguments.add(word);
                } else if (word.startsWith("-Xss") && word.length() > 4) {
                    stackSize = word.substring(4);
                    vmArguments.add(word);
                } else if (isFixed(word)) {
                    fixed.add(word);
                    if (!VM_CHOICE.contains(word)) {
                        vmArguments.add(word);
                    }
                } else if (word.startsWith("--add-opens") || word.startsWith("--add-exports")) {
                    int taken = moduleOption(i);
                    if (taken < 0) {
                        return moduleProblem;
                    }
                    if (taken == 0) {
                        return "option " + word + " is not supported by the pool";
                    }
                    i += taken - 1;
                } else {
                    // Includes @argfiles, which the launcher expands into more options.
                    return "option " + word + " is not supported by the pool";
                }
            }
            if (i >= words.size()) {
                return "no main class given; only a new JVM can report that";
            }
            mainClass = words.get(i);
            args = List.copyOf(words.subList(i + 1, words.size()));
            return null;
        }

        /** Heap and -XX: tuning that the running pool JVMs cannot change and that does not change what the program prints. */
        private static boolean isFixed(String word) {
            for (String size : List.of("-Xmx", "-Xms", "-Xmn")) {
                if (word.startsWith(size) && word.length() > size.length()) {
                    return true;
                }
            }
            if (word.startsWith("-XX:")) {
                return !word.startsWith("-XX:+Print"); // options that print need a new JVM
            }
            return VM_CHOICE.contains(word);
        }

        /**
         * {@code --add-opens}/{@code --add-exports VALUE} (or {@code =VALUE}) at {@code i}: how many
         * words it takes; 0 if it is neither option, -1 (with {@link #moduleProblem}) if only a new
         * JVM can take it. MODULE/PACKAGE=ALL-UNNAMED, which a pool JVM started with it gives every
         * run, goes to the slot; any other target, or a malformed value (which java reports), does not.
         */
        private int moduleOption(int i) {
            String word = words.get(i);
            for (String name : List.of("--add-opens", "--add-exports")) {
                if (!word.startsWith(name) || (word.length() > name.length() && word.charAt(name.length()) != '=')) {
                    continue;
                }
                boolean joined = word.length() > name.length();
                String value = joined ? word.substring(name.length() + 1) : i + 1 < words.size() ? words.get(i + 1) : null;
                int slash = value == null ? -1 : value.indexOf('/');
                int eq = value == null ? -1 : value.indexOf('=');
                if (slash <= 0 || eq <= slash + 1 || value.substring(slash + 1, eq).contains("/")
                        || value.substring(0, eq).contains(",")) {
                    moduleProblem = "option " + name + " " + (value == null ? "(no value)" : value)
                            + " is not MODULE/PACKAGE=TARGET; only a new JVM can report that";
                    return -1;
                }
                if (!value.substring(eq + 1).equals("ALL-UNNAMED")) {
                    moduleProblem = "option " + name + " " + value + " names a target other than ALL-UNNAMED, which only a new JVM"
                            + " can honour";
                    return -1;
                }
                (name.equals("--add-opens") ? opens : exports).add(value.substring(0, eq));
                vmArguments.add(name + "=" + value);
                return joined ? 1 : 2;
            }
            return 0;
        }
    }
}
