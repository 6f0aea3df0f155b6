package org.jvmreuse.pool.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: the control protocol has one table of names, {@link ControlWire} on the Java side and
 * {@code control_wire.h} on the C client's; they agree name for name and value for value, and the
 * client (every file of {@code src/main/c/client}, comments aside) writes none of those values as a
 * string of its own.
 */
class ControlWireTest {
    private static final Path C_SOURCES = Path.of("src/main/c");
    private static final Path CLIENT_SOURCES = C_SOURCES.resolve("client");
    private static final Pattern DEFINE = Pattern.compile("^#define WIRE_(\\w+) (\"[^\"]*\"|\\([^)]*\\)|\\d+)", Pattern.MULTILINE);
    private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/", Pattern.DOTALL);

    @Test
    void theClientsHeaderAndTheJavaTableAreOneTable() throws Exception {
        Map<String, String> header = new TreeMap<>();
        Matcher m = DEFINE.matcher(Files.readString(C_SOURCES.resolve("control_wire.h")));
        while (m.find()) {
            header.put(m.group(1), cValue(m.group(2)));
        }
        Map<String, String> java = new TreeMap<>();
        for (Field field : ControlWire.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && Modifier.isPublic(field.getModifiers())) {
                java.put(field.getName(), String.valueOf(field.get(null)));
            }
        }
        assertTrue(java.size() > 40, "ControlWire: " + java);
        assertEquals(java, header, "ControlWire and control_wire.h");
        assertEquals(ControlWire.KIND_TASK, RunKind.TASK.wireName());
        assertEquals(ControlWire.KIND_AM, RunKind.AM.wireName());
    }

    @Test
    void theClientNamesTheProtocolOnlyThroughTheHeader() throws IOException {
        List<String> values = new ArrayList<>();
        for (Field field : ControlWire.class.getDeclaredFields()) {
            if (field.getType() == String.class) {
                values.add(field.getName());
            }
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(CLIENT_SOURCES)) {
            files = listing.filter(f -> f.toString().endsWith(".c") || f.toString().endsWith(".h")).sorted().toList();
        }
        assertTrue(files.contains(CLIENT_SOURCES.resolve("main.c")) && files.size() > 5, "the client's files: " + files);
        List<String> found = new ArrayList<>();
        for (Path file : files) {
            Matcher m = LITERAL.matcher(COMMENT.matcher(Files.readString(file)).replaceAll(""));
            while (m.find()) {
                for (Field field : ControlWire.class.getDeclaredFields()) {
                    if (field.getType() == String.class && m.group(1).equals(valueOf(field))) {
                        found.add(file.getFileName() + ": \"" + m.group(1) + "\" (WIRE_" + field.getName() + ")");
                    }
                }
            }
        }
        assertTrue(values.size() > 40);
        assertEquals(List.of(), found, "the client spells out names of control_wire.h");
    }

    private static String valueOf(Field field) {
        try {
            return (String) field.get(null);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** A define's value as Java prints the constant: a string's contents, or a small integer expression. */
    private static String cValue(String text) {
        if (text.startsWith("\"")) {
            return text.substring(1, text.length() - 1);
        }
        long product = 1;
        for (String factor : text.replaceAll("[()\\s]", "").split("\\*")) {
            product *= Long.parseLong(factor);
        }
        return Long.toString(product);
    }
}
