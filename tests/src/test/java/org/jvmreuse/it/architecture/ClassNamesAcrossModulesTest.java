package org.jvmreuse.it.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: no module reaches a class of another by a name in a string ({@code Class.forName}, a
 * list in a resource read by reflection): modules meet through interfaces the compiler checks,
 * found with {@code ServiceLoader} where one side cannot depend on the other. Reads the string
 * constants of every class of each module's main code and fails on one that names a class of
 * another module, saying where.
 */
class ClassNamesAcrossModulesTest {
    private static final Path REPO = Path.of(System.getProperty("jvmreuse.repo", "."));
    private static final List<String> MODULES = List.of("pool-manager", "hadoop-patch", "hadoop3-patch", "mpi-shuffle", "workloads");

    @Test
    void noModuleNamesAnotherModulesClassInAString() throws IOException {
        Map<String, String> moduleOfClass = new HashMap<>();
        for (String module : MODULES) {
            for (Path file : classFiles(module)) {
                moduleOfClass.put(className(module, file), module);
            }
        }
        assertTrue(moduleOfClass.size() > 100, "found only " + moduleOfClass.size() + " classes: is the reactor built?");
        List<String> found = new ArrayList<>();
        for (String module : MODULES) {
            for (Path file : classFiles(module)) {
                for (String constant : stringConstants(file)) {
                    String owner = moduleOfClass.get(constant.replace('/', '.'));
                    if (owner != null && !owner.equals(module)) {
                        found.add(className(module, file) + " (" + module + ") names " + constant + " (" + owner + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), found, "classes of other modules named in strings");
    }

    private static Path classes(String module) {
        return REPO.resolve(module).resolve("target/classes");
    }

    private static List<Path> classFiles(String module) throws IOException {
        try (Stream<Path> files = Files.walk(classes(module))) {
            return files.filter(f -> f.toString().endsWith(".class")).toList();
        }
    }

    private static String className(String module, Path file) {
        String relative = classes(module).relativize(file).toString();
        return relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
    }

    /** The values of the class file's CONSTANT_String entries (JVMS 4.4). */
    private static List<String> stringConstants(Path file) throws IOException {
        try (InputStream raw = Files.newInputStream(file); DataInputStream in = new DataInputStream(raw)) {
            in.readInt(); // magic
            in.readUnsignedShort(); // minor version
            in.readUnsignedShort(); // major version
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            List<Integer> strings = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 8 -> strings.add(in.readUnsignedShort());
                    case 7, 16, 19, 20 -> in.readUnsignedShort();
                    case 15 -> {
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                    case 5, 6 -> {
                        in.readLong();
                        i++; // eight-byte constants take two entries
                    }
                    default -> throw new IOException(file + ": unknown constant pool tag " + tag + " at entry " + i);
                }
            }
            List<String> values = new ArrayList<>();
            for (int index : strings) {
                values.add(utf8[index]);
            }
            return values;
        }
    }
}
