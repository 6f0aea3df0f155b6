package org.jvmreuse.pool.classpath;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Identifies "the same program" for the reuse policy, as HotTub did: a digest of the class
 * path entries with each file's size and modification time (a changed jar is a different
 * program; hashing jar contents on every launch would cost more than it saves).
 */
public final class ClassPathKey {
    private ClassPathKey() {
    }

    public static String of(List<String> classPath) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        for (String entry : classPath) {
            digest.update(entry.getBytes(StandardCharsets.UTF_8));
            Path path = Path.of(entry.endsWith("*") ? entry.substring(0, entry.length() - 1) : entry);
            try {
                BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
                digest.update((attrs.size() + "/" + attrs.lastModifiedTime().toMillis()).getBytes(StandardCharsets.UTF_8));
            } catch (IOException missing) {
                digest.update((byte) 0);
            }
            digest.update((byte) ':');
        }
        return HexFormat.of().formatHex(digest.digest(), 0, 8);
    }
}
