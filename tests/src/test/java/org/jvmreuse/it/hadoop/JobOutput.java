package org.jvmreuse.it.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** What a job wrote, in forms two runs of a job can be compared by. */
final class JobOutput {
    private JobOutput() {
    }

    /**
     * Every file of the output dir (part files and _SUCCESS, not checksum files) as name -> SHA-256.
     * Directories are not output: a reduce attempt killed after the job's commit (a speculative one
     * beside a reducer slowed by fetch failures) can leave its {@code _temporary} behind, in stock
     * Hadoop as here.
     */
    static Map<String, String> digests(Path dir) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.list(dir)) {
            for (Path f : all.filter(p -> !p.getFileName().toString().startsWith(".") && Files.isRegularFile(p)).toList()) {
                files.put(f.getFileName().toString(),
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f))));
            }
        }
        assertTrue(files.keySet().stream().anyMatch(n -> n.startsWith("part-")), "no output files in " + dir + ": " + files);
        return files;
    }

    /** The words of the text files in {@code dir} with how often each occurs (what wordcount must write). */
    static Map<String, Long> wordCounts(Path dir) throws Exception {
        Map<String, Long> counts = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                for (String line : Files.readAllLines(f)) {
                    for (String word : line.split("\\s+")) {
                        counts.merge(word, 1L, Long::sum);
                    }
                }
            }
        }
        return counts;
    }

    /** wordcount's output lines ("word TAB count") as word -> count; a word twice fails. */
    static Map<String, Long> countedWords(List<String> lines) {
        Map<String, Long> counted = new TreeMap<>();
        for (String line : lines) {
            String[] kv = line.split("\t");
            assertEquals(2, kv.length, "a wordcount line: " + line);
            assertEquals(null, counted.put(kv[0], Long.parseLong(kv[1])), "word twice: " + kv[0]);
        }
        return counted;
    }

    /** The lines of a job's reduce outputs ({@code part-r-*} in {@code out}). */
    static List<String> reduceOutput(Path out) throws Exception {
        List<String> written = new java.util.ArrayList<>();
        try (Stream<Path> parts = Files.list(out)) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-r-")).sorted().toList()) {
                written.addAll(Files.readAllLines(part));
            }
        }
        return written;
    }

    /**
     * The records of SequenceFile part files as {@code hadoop fs -text} prints them: the files
     * themselves carry a random sync marker, so equal jobs write different bytes.
     */
    static String text(HadoopCluster cluster, Path dir) throws Exception {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> parts = Files.list(dir)) {
            for (Path part : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
                var r = cluster.hadoop(List.of("fs", "-text", part.toUri().toString()), 300);
                assertEquals(0, r.code(), "fs -text failed: " + r);
                all.append(r.out());
            }
        }
        assertTrue(all.length() > 100_000, "sorted output is too small: " + all.length());
        return all.toString();
    }
}
