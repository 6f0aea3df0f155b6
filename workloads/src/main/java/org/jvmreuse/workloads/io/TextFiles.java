package org.jvmreuse.workloads.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Lines of a file, or of a directory's data files in name order (as MapReduce reads them: names
 * starting with "_" or "." are skipped), on any Hadoop file system.
 */
public final class TextFiles {
    /** Receives lines; may stop the reading early by returning false. */
    @FunctionalInterface
    public interface LineVisitor {
        boolean visit(String line) throws IOException;
    }

    private TextFiles() {
    }

    private static List<Path> dataFiles(FileSystem fs, Path path) throws IOException {
        FileStatus status = fs.getFileStatus(path);
        List<Path> files = new ArrayList<>();
        if (!status.isDirectory()) {
            files.add(status.getPath());
            return files;
        }
        for (FileStatus child : fs.listStatus(path)) {
            String name = child.getPath().getName();
            if (child.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
                files.add(child.getPath());
            }
        }
        files.sort(Comparator.comparing(Path::getName));
        return files;
    }

    /** Visits every line of {@code path} (a file or a directory) until the visitor returns false. */
    public static void read(FileSystem fs, Path path, LineVisitor visitor) throws IOException {
        for (Path file : dataFiles(fs, path)) {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (!visitor.visit(line)) {
                        return;
                    }
                }
            }
        }
    }

    public static List<String> lines(FileSystem fs, Path path) throws IOException {
        List<String> lines = new ArrayList<>();
        read(fs, path, lines::add);
        return lines;
    }
}
