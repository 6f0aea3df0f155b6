package org.jvmreuse.workloads.timing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The plain CSV of the timing files: a header line, no quoting (values must not hold commas or
 * line breaks). Rows read back are keyed by column name, so columns may be added or reordered.
 */
public final class Csv {
    private Csv() {
    }

    public static String row(Object... values) {
        StringBuilder line = new StringBuilder();
        for (Object value : values) {
            String text = String.valueOf(value);
            if (text.contains(",") || text.contains("\n") || text.contains("\r")) {
                throw new IllegalArgumentException("a CSV value must not hold a comma or line break: " + text);
            }
            line.append(line.length() == 0 ? "" : ",").append(text);
        }
        return line.append('\n').toString();
    }

    /** Starts a file with its header (replacing an existing one). */
    public static void create(Path file, String header) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, header + "\n", StandardCharsets.UTF_8);
    }

    /** Appends a row, writing the header first if the file is new or empty. */
    public static void append(Path file, String header, String row) throws IOException {
        if (!Files.exists(file) || Files.size(file) == 0) {
            create(file, header);
        }
        Files.writeString(file, row, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    public static List<Map<String, String>> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            throw new IOException(file + ": empty, no header");
        }
        List<String> header = Arrays.asList(lines.get(0).trim().split(",", -1));
        List<Map<String, String>> rows = new ArrayList<>();
        for (int n = 1; n < lines.size(); n++) {
            if (lines.get(n).isBlank()) {
                continue;
            }
            String[] values = lines.get(n).trim().split(",", -1);
            if (values.length != header.size()) {
                throw new IOException(file + ":" + (n + 1) + ": " + values.length + " values, header has " + header.size());
            }
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < values.length; i++) {
                row.put(header.get(i), values[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    /** A column of a row read back; a missing column is an error naming it. */
    public static String column(Map<String, String> row, String name) throws IOException {
        String value = row.get(name);
        if (value == null) {
            throw new IOException("no column " + name);
        }
        return value;
    }
}
