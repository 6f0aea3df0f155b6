package org.jvmreuse.workloads;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** The `--name value` options of a subcommand; unknown, repeated or missing options are usage errors. */
public final class Options {
    private final Map<String, String> values;

    private Options(Map<String, String> values) {
        this.values = values;
    }

    public static Options parse(String[] args, Set<String> known) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || !known.contains(args[i].substring(2))) {
                throw new UsageException("unknown option " + args[i]);
            }
            if (i + 1 >= args.length) {
                throw new UsageException(args[i] + " needs a value");
            }
            if (values.put(args[i].substring(2), args[i + 1]) != null) {
                throw new UsageException(args[i] + " given twice");
            }
        }
        return new Options(values);
    }

    public boolean has(String name) {
        return values.containsKey(name);
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
