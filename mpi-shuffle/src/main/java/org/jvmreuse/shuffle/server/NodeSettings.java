package org.jvmreuse.shuffle.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * What a Shuffle Manager needs of its NodeManager, read from that NodeManager's configuration
 * directory with Hadoop's own defaults: its local dirs, its shuffle port, and the names its
 * host goes by (so that reducers can recognise the node in a map's shuffle address), and the
 * size of its ShuffleHandler's index cache ({@value #INDEX_CACHE_MB}, default 10 MB), which the
 * Shuffle Manager's cache of map output indexes keeps to as well.
 */
record NodeSettings(List<Path> localDirs, int shufflePort, List<String> hostNames, long indexCacheBytes) {
    static final String INDEX_CACHE_MB = "mapreduce.tasktracker.indexcache.mb";

    static NodeSettings read(Path confDir) throws IOException {
        if (!Files.isDirectory(confDir)) {
            throw new IOException("the NodeManager configuration directory " + confDir + " does not exist");
        }
        Configuration conf = new Configuration(false);
        conf.setClassLoader(NodeSettings.class.getClassLoader());
        for (String defaults : List.of("core-default.xml", "yarn-default.xml", "mapred-default.xml")) {
            conf.addResource(defaults);
        }
        for (String site : List.of("core-site.xml", "yarn-site.xml", "mapred-site.xml")) {
            Path file = confDir.resolve(site);
            if (Files.isRegularFile(file)) {
                conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
            }
        }
        List<Path> dirs = new ArrayList<>();
        for (String dir : conf.getTrimmedStrings("yarn.nodemanager.local-dirs")) {
            dirs.add(Path.of(dir.startsWith("file:") ? java.net.URI.create(dir).getPath() : dir));
        }
        if (dirs.isEmpty()) {
            throw new IOException("yarn.nodemanager.local-dirs is empty in " + confDir);
        }
        int port = conf.getInt("mapreduce.shuffle.port", 13562);
        int cacheMb = conf.getInt(INDEX_CACHE_MB, 10);
        if (cacheMb < 0) {
            throw new IOException(INDEX_CACHE_MB + " must be >= 0, not " + cacheMb + " (in " + confDir + ")");
        }
        return new NodeSettings(List.copyOf(dirs), port, hostNames(conf.getTrimmed("yarn.nodemanager.hostname", "")),
                cacheMb * 1024L * 1024L);
    }

    /** The configured NodeManager host name, then this host's names and addresses. */
    private static List<String> hostNames(String configured) throws IOException {
        Set<String> names = new LinkedHashSet<>();
        if (!configured.isEmpty() && !configured.equals("0.0.0.0")) {
            names.add(configured);
        }
        InetAddress local = InetAddress.getLocalHost();
        names.add(local.getHostName());
        names.add(local.getCanonicalHostName());
        names.add(local.getHostAddress());
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address.getAddress().length == 4) {
                    names.add(address.getHostAddress());
                }
            }
        }
        return List.copyOf(names);
    }
}
