package org.jvmreuse.hadoop.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProblemsTest {
    @Test
    void aFailedStepDoesNotStopTheOthers() {
        List<String> ran = new ArrayList<>();
        Problems p = new Problems();
        p.critical("first", () -> {
            throw new IllegalStateException("broken");
        });
        p.minor("second", () -> ran.add("second"));
        assertEquals(List.of("second"), ran);
        IllegalStateException e = assertThrows(IllegalStateException.class, p::throwIfCritical);
        assertTrue(e.getMessage().contains("first: java.lang.IllegalStateException: broken"), e.getMessage());
    }

    @Test
    void minorFailuresAloneLetTheSlotGoOnAndAreNamedWhenItRetires() {
        Problems p = new Problems();
        p.minor("cache", () -> {
            throw new IllegalStateException("gone");
        });
        p.throwIfCritical();
        p.critical("registry", () -> {
            throw new NoSuchFieldError("x");
        });
        String message = assertThrows(IllegalStateException.class, p::throwIfCritical).getMessage();
        assertTrue(message.contains("registry") && message.contains("minor: cache"), message);
    }
}
