package org.jvmreuse.it.hadoop;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Watches a cluster's NodeManagers' local dirs and damages the first attempt's output of maps
 * 0-3 of the next job the moment its index is complete (the reducers start only after all maps
 * finished): file.out deleted, file.out truncated, index corrupted, data corrupted (the MPI
 * shuffle tests on 2.2 and 3.x).
 */
final class MapOutputDamage implements AutoCloseable {
    private static final Pattern FIRST_ATTEMPT = Pattern.compile("attempt_\\d+_\\d+_m_00000([0-3])_0");
    private final Path clusterDir;
    private final int nodeManagers;
    private final int partitions;
    private final Set<Integer> damaged = ConcurrentHashMap.newKeySet();
    private final Set<Path> earlierJobs = ConcurrentHashMap.newKeySet();
    private final Thread watcher;
    private volatile boolean stop;

    MapOutputDamage(HadoopCluster cluster, int partitions) throws IOException {
        this.clusterDir = cluster.dir;
        this.nodeManagers = cluster.nodeManagers;
        this.partitions = partitions;
        for (int nm = 1; nm <= nodeManagers; nm++) {
            Path local = clusterDir.resolve("nm" + nm + "/local/usercache");
            if (Files.isDirectory(local)) {
                try (Stream<Path> apps = Files.walk(local, 3)) {
                    apps.filter(p -> p.getFileName().toString().startsWith("application_")).forEach(earlierJobs::add);
                }
            }
        }
        watcher = new Thread(this::watch, "map-output-damage");
        watcher.setDaemon(true);
        watcher.start();
    }

    Set<Integer> damaged() {
        return Set.copyOf(damaged);
    }

    private void watch() {
        while (!stop && damaged.size() < 4) {
            try {
                for (int nm = 1; nm <= nodeManagers; nm++) {
                    Path local = clusterDir.resolve("nm" + nm + "/local/usercache");
                    if (!Files.isDirectory(local)) {
                        continue;
                    }
                    try (Stream<Path> files = Files.walk(local, 6)) {
                        for (Path index : files.filter(p -> p.getFileName().toString().equals("file.out.index")).toList()) {
                            Matcher m = FIRST_ATTEMPT.matcher(index.getParent().getFileName().toString());
                            Path app = index.getParent().getParent().getParent();
                            if (m.matches() && !earlierJobs.contains(app) && Files.size(index) == partitions * 24L + 8
                                    && damaged.add(Integer.parseInt(m.group(1)))) {
                                damage(Integer.parseInt(m.group(1)), index);
                            }
                        }
                    }
                }
                Thread.sleep(10);
            } catch (IOException | java.io.UncheckedIOException e) {
                // a directory vanished while walking (a finished container); look again
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void damage(int map, Path index) throws IOException {
        Path out = index.resolveSibling("file.out");
        switch (map) {
            case 0 -> Files.delete(out);
            case 1 -> {
                try (RandomAccessFile f = new RandomAccessFile(out.toFile(), "rw")) {
                    f.setLength(f.length() / 2);
                }
            }
            case 2 -> flip(index, 5);
            default -> {
                ByteBuffer records = ByteBuffer.wrap(Files.readAllBytes(index));
                for (int r = 0; r < partitions; r++) {
                    long start = records.getLong(r * 24);
                    long length = records.getLong(r * 24 + 16);
                    flip(out, start + length / 2);
                }
            }
        }
    }

    private static void flip(Path file, long at) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x20);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        watcher.join(5000);
    }
}
