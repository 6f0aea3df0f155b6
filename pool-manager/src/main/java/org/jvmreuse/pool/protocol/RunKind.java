package org.jvmreuse.pool.protocol;

import java.util.Locale;

/**
 * What a run is, as the client says in the {@code kind} field: a task (the default), or an
 * application master, which holds its slot for a whole job while it waits for that job's tasks;
 * the manager gives application masters at most {@code --am-slots} slots at once.
 */
public enum RunKind {
    TASK, AM;

    /** The field's value: {@code task} or {@code am}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind a field value names; an absent or empty field is a task. */
    public static RunKind parse(String value) throws ProtocolException {
        if (value == null || value.isEmpty()) {
            return TASK;
        }
        for (RunKind kind : values()) {
            if (kind.wireName().equals(value)) {
                return kind;
            }
        }
        throw new ProtocolException("kind must be task or am, got '" + value + "'");
    }
}
