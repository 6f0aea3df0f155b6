package org.jvmreuse.hadoop.warmup;

import static org.jvmreuse.hadoop.names.HadoopNames.ShuffleContexts.FEEDBACK_TASK_FOUND;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.mapred.MapTaskCompletionEventsUpdate;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapred.TaskCompletionEvent;
import org.apache.hadoop.mapred.TaskUmbilicalProtocol;
import org.jvmreuse.hadoop.names.FieldName;

/**
 * The warm-up reducer's umbilical, in place of the AM's: it reports every map as succeeded on
 * {@code address} (what the shuffle's event fetcher asks for) and accepts status updates. A
 * proxy, since some of the protocol's parameter types are package-private in Hadoop.
 */
final class MapEvents {
    private final TaskCompletionEvent[] events;

    MapEvents(List<TaskAttemptID> maps, String address) {
        events = new TaskCompletionEvent[maps.size()];
        for (int i = 0; i < events.length; i++) {
            events[i] = new TaskCompletionEvent(i, maps.get(i), i, true, TaskCompletionEvent.Status.SUCCEEDED, address);
        }
    }

    TaskUmbilicalProtocol umbilical() {
        return (TaskUmbilicalProtocol) Proxy.newProxyInstance(TaskUmbilicalProtocol.class.getClassLoader(),
                new Class<?>[] {TaskUmbilicalProtocol.class}, (proxy, method, args) -> answer(proxy, method, args));
    }

    /** 3.x's answer to a status update: the task is known (a plain true on 2.2; false would make the task exit its JVM). */
    private static Object feedback(Class<?> type, FieldName taskFound) {
        try {
            Object feedback = type.getConstructor().newInstance();
            Field field = type.getDeclaredField(taskFound.name());
            field.setAccessible(true);
            field.setBoolean(feedback, true);
            return feedback;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot answer a status update with " + type.getName(), e);
        }
    }

    private Object answer(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "getMapCompletionEvents" -> {
                int from = Math.min((Integer) args[1], events.length);
                int max = (Integer) args[2];
                return new MapTaskCompletionEventsUpdate(Arrays.copyOfRange(events, from, Math.min(events.length, from + max)),
                        false);
            }
            case "statusUpdate" -> {
                return FEEDBACK_TASK_FOUND.map(taskFound -> feedback(method.getReturnType(), taskFound)).orElse(Boolean.TRUE);
            }
            case "ping", "canCommit" -> {
                return true;
            }
            case "getProtocolVersion" -> {
                return TaskUmbilicalProtocol.versionID;
            }
            case "hashCode" -> {
                return System.identityHashCode(this);
            }
            case "equals" -> {
                return args[0] == proxy;
            }
            case "toString" -> {
                return "warm-up umbilical";
            }
            default -> {
                if (method.getReturnType() == void.class) {
                    return null;
                }
                throw new UnsupportedOperationException(method.getName() + " in the warm-up");
            }
        }
    }
}
