package org.jvmreuse.it.programs;

import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.Set;

/** A program's own file system provider, for scheme {@code jvmreuse-probe}: found, never used. */
public final class ProbeFileSystemProvider extends FileSystemProvider {
    @Override
    public String getScheme() {
        return "jvmreuse-probe";
    }

    private static UnsupportedOperationException unused() {
        return new UnsupportedOperationException("a probe provider");
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) {
        throw unused();
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        throw unused();
    }

    @Override
    public Path getPath(URI uri) {
        throw unused();
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) {
        throw unused();
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter) {
        throw unused();
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) {
        throw unused();
    }

    @Override
    public void delete(Path path) {
        throw unused();
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) {
        throw unused();
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) {
        throw unused();
    }

    @Override
    public boolean isSameFile(Path path, Path path2) {
        throw unused();
    }

    @Override
    public boolean isHidden(Path path) {
        throw unused();
    }

    @Override
    public FileStore getFileStore(Path path) {
        throw unused();
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) {
        throw unused();
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        throw unused();
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options) {
        throw unused();
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) {
        throw unused();
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
        throw unused();
    }
}
