package org.jvmreuse.shuffle.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.SecretKey;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;

/**
 * The shuffle secrets of the jobs whose map outputs this node keeps, where the NodeManager's
 * container executor records them when it launches a job's container here (hadoop-patch's
 * {@code ShuffleSecretFile}, from the container's credentials, as Hadoop's task gets its own):
 * {@value #FILE} in the application's directory of the NodeManager's private area,
 * {@code <local dir>/nmPrivate/<application>/}, which the NodeManager deletes with the
 * application. Only the NodeManager's side writes there: a secret is never taken from a
 * request or from a task. Recent secrets are kept, each checked against its file's time.
 */
public final class JobSecrets {
    /** The file's name; hadoop-patch's ShuffleSecretFile writes it (the two modules do not share classes). */
    static final String FILE = "jvmreuse-shuffle-secret";
    private static final int KEPT = 64;

    private record Known(FileTime modified, SecretKey secret) {
    }

    private final List<Path> localDirs;
    private final Map<Path, Known> known = new LinkedHashMap<>(16, 0.75f, true); // guarded by itself

    JobSecrets(List<Path> localDirs) {
        this.localDirs = List.copyOf(localDirs);
    }

    /** The recorded secret of {@code jobId} (checked to be a job id), or a MapOutputException if this node has none. */
    SecretKey of(String jobId) throws IOException {
        if (!MapOutputs.JOB_ID.matcher(jobId).matches()) {
            throw new MapOutputException("malformed job id '" + jobId + "'");
        }
        for (Path dir : localDirs) {
            Path file = file(dir, jobId);
            FileTime modified;
            try {
                modified = Files.getLastModifiedTime(file);
            } catch (NoSuchFileException e) {
                continue;
            }
            synchronized (known) {
                Known k = known.get(file);
                if (k != null && k.modified.equals(modified)) {
                    return k.secret;
                }
            }
            SecretKey secret = JobTokenSecretManager.createSecretKey(Files.readAllBytes(file));
            synchronized (known) {
                known.put(file, new Known(modified, secret));
                if (known.size() > KEPT) {
                    known.remove(known.keySet().iterator().next());
                }
            }
            return secret;
        }
        throw new MapOutputException("no shuffle secret of " + jobId + " was recorded on this node (" + FILE
                + " under nmPrivate in " + localDirs + ")");
    }

    private static Path file(Path localDir, String jobId) {
        return localDir.resolve("nmPrivate/application_" + jobId.substring("job_".length())).resolve(FILE);
    }

    /**
     * Records {@code secret} as job {@code jobId}'s under {@code localDir}, as the NodeManager's
     * executor does (for the slots' in-JVM warm-up, benchmarks and tests); readable by the owner only.
     */
    public static void record(Path localDir, String jobId, byte[] secret) throws IOException {
        Path file = file(localDir, jobId);
        Files.createDirectories(file.getParent());
        Path written = Files.createTempFile(file.getParent(), FILE, ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.write(written, secret);
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(written);
        }
    }
}
