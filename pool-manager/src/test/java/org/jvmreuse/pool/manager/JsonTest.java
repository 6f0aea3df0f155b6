package org.jvmreuse.pool.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void quotesBackslashesAndControlCharactersAreEscapedAndTheTextStaysOnOneLine() {
        assertEquals("\"plain /tmp/x.sock\"", Json.quote("plain /tmp/x.sock"));
        assertEquals("\"say \\\"hi\\\" C:\\\\dir\\\\\"", Json.quote("say \"hi\" C:\\dir\\"));
        assertEquals("\"a\\nb\\r\\tc\\u0000\\u001b\\u007f\\u2028\"", Json.quote("a\nb\r\tc\0\u001b\u007f\u2028"));
        assertEquals("\"über 日本 \uD83D\uDE00\"", Json.quote("über 日本 \uD83D\uDE00"), "printable Unicode as it is");
    }

    @Test
    void membersKeepTheirOrderAndNullIsJsonNull() {
        String json = new Json().put("n", 3).put("s", "x\"y").put("none", (String) null).put("ms", 1.5)
                .putNumbers("ranks", List.of(4, 5)).put("inner", new Json().put("k", 0))
                .putObjects("list", List.of(new Json().put("a", 1), new Json())).toString();
        assertEquals("{\"n\":3,\"s\":\"x\\\"y\",\"none\":null,\"ms\":1.50,\"ranks\":[4,5],\"inner\":{\"k\":0},"
                + "\"list\":[{\"a\":1},{}]}", json);
    }
}
