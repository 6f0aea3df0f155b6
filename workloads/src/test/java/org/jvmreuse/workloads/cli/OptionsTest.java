package org.jvmreuse.workloads.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OptionsTest {
    @Test
    void listOptionsTakeTheValuesUpToTheNextOption() {
        Options o = Options.parse(new String[] {"--logs", "a", "b", "--label", "x"}, Set.of("label"), Set.of("logs"));
        assertEquals(List.of("a", "b"), o.getList("logs"));
        assertEquals("x", o.get("label"));
        assertEquals(List.of(), Options.parse(new String[0], Set.of(), Set.of("logs")).getList("logs"));
        assertThrows(UsageException.class, () -> Options.parse(new String[] {"--logs", "--label", "x"}, Set.of("label"),
                Set.of("logs")), "a list needs a value");
        assertThrows(UsageException.class, () -> Options.parse(new String[] {"--logs", "a", "--logs", "b"}, Set.of(),
                Set.of("logs")), "given twice");
    }

    @Test
    void aPlainOptionTakesExactlyOneValue() {
        assertEquals("--x", Options.parse(new String[] {"--title", "--x"}, Set.of("title")).get("title"));
        assertThrows(UsageException.class, () -> Options.parse(new String[] {"--label", "a", "b"}, Set.of("label")));
        assertThrows(UsageException.class, () -> Options.parse(new String[] {"--label"}, Set.of("label")));
    }
}
