package org.jvmreuse.pool.manager;

import java.util.List;
import java.util.Locale;

/**
 * A compact, one-line JSON object whose members keep the order they were put in: the layout of
 * {@code jvmreuse status --json} is fixed (docs/protocol.md), so that a script can read its
 * leading scalar members without a JSON library.
 */
final class Json {
    private final StringBuilder out = new StringBuilder("{");

    Json put(String key, long value) {
        return raw(key, Long.toString(value));
    }

    /** A number with two decimals, e.g. milliseconds. */
    Json put(String key, double value) {
        return raw(key, String.format(Locale.ROOT, "%.2f", value));
    }

    /** A string, or {@code null} for null. */
    Json put(String key, String value) {
        return raw(key, value == null ? "null" : quote(value));
    }

    Json put(String key, Json value) {
        return raw(key, value.toString());
    }

    /** An array of numbers. */
    Json putNumbers(String key, List<? extends Number> values) {
        return raw(key, "[" + String.join(",", values.stream().map(String::valueOf).toList()) + "]");
    }

    /** An array of objects. */
    Json putObjects(String key, List<Json> values) {
        return raw(key, "[" + String.join(",", values.stream().map(Json::toString).toList()) + "]");
    }

    private Json raw(String key, String json) {
        if (out.length() > 1) {
            out.append(',');
        }
        out.append(quote(key)).append(':').append(json);
        return this;
    }

    @Override
    public String toString() {
        return out + "}";
    }

    /**
     * {@code s} as a JSON string: quotes, backslashes and every control character escaped, so
     * the text stays on one line and holds no NUL (it travels in a protocol field).
     */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
