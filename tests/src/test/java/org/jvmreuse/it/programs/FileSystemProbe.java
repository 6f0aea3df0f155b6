package org.jvmreuse.it.programs;

import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code FileSystemProbe JAR}: the schemes of the installed file system providers, as a program
 * sees them, then whether a jar file system of JAR opens; it is left open, as programs do.
 */
public final class FileSystemProbe {
    public static void main(String[] args) {
        System.out.println("schemes: " + FileSystemProvider.installedProviders().stream()
                .map(FileSystemProvider::getScheme).sorted().collect(Collectors.joining(" ")));
        URI jar = URI.create("jar:" + Path.of(args[0]).toUri());
        try {
            FileSystems.newFileSystem(jar, Map.of());
            System.out.println("jar file system: opened");
        } catch (Exception e) {
            System.out.println("jar file system: " + e.getClass().getName());
        }
    }
}
