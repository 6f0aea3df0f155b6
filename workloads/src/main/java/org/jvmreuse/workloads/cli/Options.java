package org.jvmreuse.workloads.cli;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The `--name value` options of a subcommand; unknown, repeated or missing options are usage errors.
 * A list option ({@code --name v1 v2 ...}) takes the values up to the next argument that starts with "--".
 */
public final class Options {
    private final Map<String, String> values;
    private final Map<String, List<String>> lists;

    private Options(Map<String, String> values, Map<String, List<String>> lists) {
        this.values = values;
        this.lists = lists;
    }

    public static Options parse(String[] args, Set<String> known) {
        return parse(args, known, Set.of());
    }

    /** {@code listNames}: the names of list options (not in {@code known}). */
    public static Options parse(String[] args, Set<String> known, Set<String> listNames) {
        Map<String, String> values = new HashMap<>();
        Map<String, List<String>> lists = new HashMap<>();
        int i = 0;
        while (i < args.length) {
            String name = args[i].startsWith("--") ? args[i].substring(2) : "";
            if (!known.contains(name) && !listNames.contains(name)) {
                throw new UsageException("unknown option " + args[i]);
            }
            if (values.containsKey(name) || lists.containsKey(name)) {
                throw new UsageException(args[i] + " given twice");
            }
            if (i + 1 >= args.length || listNames.contains(name) && args[i + 1].startsWith("--")) {
                throw new UsageException(args[i] + " needs a value");
            }
            if (listNames.contains(name)) {
                int end = i + 1;
                while (end < args.length && !args[end].startsWith("--")) {
                    end++;
                }
                lists.put(name, List.of(Arrays.copyOfRange(args, i + 1, end)));
                i = end;
            } else {
                values.put(name, args[i + 1]);
                i += 2;
            }
        }
        return new Options(values, lists);
    }

    public boolean has(String name) {
        return values.containsKey(name) || lists.containsKey(name);
    }

    /** A list option's values, empty if it was not given. */
    public List<String> getList(String name) {
        return lists.getOrDefault(name, List.of());
    }

    public String get(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new UsageException("--" + name + " is required");
        }
        return value;
    }

    public String get(String name, String otherwise) {
        return values.getOrDefault(name, otherwise);
    }

    public int getInt(String name) {
        return (int) number(name, get(name), Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    public int getInt(String name, int otherwise) {
        return has(name) ? getInt(name) : otherwise;
    }

    public long getLong(String name) {
        return number(name, get(name), Long.MIN_VALUE, Long.MAX_VALUE);
    }

    public long getLong(String name, long otherwise) {
        return has(name) ? getLong(name) : otherwise;
    }

    public double getDouble(String name, double otherwise) {
        if (!has(name)) {
            return otherwise;
        }
        try {
            return Double.parseDouble(get(name));
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + ": not a number: " + get(name));
        }
    }

    /** A required integer option that must be at least {@code min}. */
    public int getAtLeast(String name, int min) {
        int value = getInt(name);
        if (value < min) {
            throw new UsageException("--" + name + " must be at least " + min);
        }
        return value;
    }

    /** An optional integer option that must be at least {@code min}. */
    public int getAtLeast(String name, int min, int otherwise) {
        return has(name) ? getAtLeast(name, min) : otherwise;
    }

    private static long number(String name, String text, long min, long max) {
        try {
            long value = Long.parseLong(text);
            if (value < min || value > max) {
                throw new UsageException("--" + name + ": out of range: " + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + ": not an integer: " + text);
        }
    }
}
