package org.jvmreuse.pool.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameTest {
    @Test
    void encodesTypeAndOrderedFieldsAsNulTerminatedStrings() throws Exception {
        Frame frame = new Frame("run").add("arg", "a=b").add("arg", "").add("cwd", "/tmp");
        byte[] bytes = frame.encode();
        assertArrayEquals("run\0arg=a=b\0arg=\0cwd=/tmp\0".getBytes(StandardCharsets.UTF_8), bytes);
        Frame back = Frame.decode(bytes);
        assertEquals("run", back.type());
        assertEquals(List.of("a=b", ""), back.getAll("arg"));
        assertEquals("/tmp", back.get("cwd"));
        assertNull(back.get("main"));
    }

    @Test
    void rejectsMalformedPayloadsWithTheReason() {
        assertEquals("malformed frame: payload must be NUL-terminated strings",
                assertThrows(ProtocolException.class, () -> Frame.decode("run".getBytes())).getMessage());
        assertEquals("malformed frame: empty message type",
                assertThrows(ProtocolException.class, () -> Frame.decode("\0".getBytes())).getMessage());
        assertEquals("malformed field '=x': expected key=value",
                assertThrows(ProtocolException.class, () -> Frame.decode("run\0=x\0".getBytes())).getMessage());
    }

    @Test
    void requireNamesTheMissingField() {
        Frame frame = new Frame("run").add("main", "");
        assertEquals("'run' request lacks the required field 'main'",
                assertThrows(ProtocolException.class, () -> frame.require("main")).getMessage());
    }
}
