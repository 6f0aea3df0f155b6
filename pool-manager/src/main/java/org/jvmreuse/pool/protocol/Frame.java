package org.jvmreuse.pool.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One control-protocol message: a type and ordered {@code key=value} fields, encoded as
 * NUL-terminated UTF-8 strings (see docs/protocol.md).
 */
public final class Frame {
    private final String type;
    private final List<Map.Entry<String, String>> fields = new ArrayList<>();

    public Frame(String type) {
        this.type = type;
    }

    public String type() {
        return type;
    }

    public Frame add(String key, Object value) {
        fields.add(Map.entry(key, String.valueOf(value)));
        return this;
    }

    public List<Map.Entry<String, String>> fields() {
        return fields;
    }

    /** The first value of {@code key}, or {@code null}. */
    public String get(String key) {
        for (Map.Entry<String, String> field : fields) {
            if (field.getKey().equals(key)) {
                return field.getValue();
            }
        }
        return null;
    }

    public List<String> getAll(String key) {
        List<String> values = new ArrayList<>();
        for (Map.Entry<String, String> field : fields) {
            if (field.getKey().equals(key)) {
                values.add(field.getValue());
            }
        }
        return values;
    }

    public String require(String key) throws ProtocolException {
        String value = get(key);
        if (value == null || value.isEmpty()) {
            throw new ProtocolException("'" + type + "' request lacks the required field '" + key + "'");
        }
        return value;
    }

    public byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        putString(out, type);
        for (Map.Entry<String, String> field : fields) {
            putString(out, field.getKey() + "=" + field.getValue());
        }
        return out.toByteArray();
    }

    private static void putString(ByteArrayOutputStream out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
        out.write(0);
    }

    public static Frame decode(byte[] payload) throws ProtocolException {
        if (payload.length == 0 || payload[payload.length - 1] != 0) {
            throw new ProtocolException("malformed frame: payload must be NUL-terminated strings");
        }
        List<String> strings = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < payload.length; i++) {
            if (payload[i] == 0) {
                strings.add(new String(payload, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (strings.get(0).isEmpty()) {
            throw new ProtocolException("malformed frame: empty message type");
        }
        Frame frame = new Frame(strings.get(0));
        for (String field : strings.subList(1, strings.size())) {
            int eq = field.indexOf('=');
            if (eq <= 0) {
                throw new ProtocolException("malformed field '" + abbreviate(field) + "': expected key=value");
            }
            frame.add(field.substring(0, eq), field.substring(eq + 1));
        }
        return frame;
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }

    @Override
    public String toString() {
        return type + fields;
    }
}
