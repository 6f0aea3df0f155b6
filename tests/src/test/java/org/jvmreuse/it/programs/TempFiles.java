package org.jvmreuse.it.programs;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** Creates a temporary file with each JDK API and prints the directory each landed in, then deletes them. */
public final class TempFiles {
    public static void main(String[] args) throws Exception {
        File io = File.createTempFile("probe", ".tmp");
        Path nio = Files.createTempFile("probe", ".tmp");
        System.out.println("File.createTempFile " + io.getAbsoluteFile().getParent());
        System.out.println("Files.createTempFile " + nio.toAbsolutePath().getParent());
        io.delete();
        Files.delete(nio);
    }
}
