package org.jvmreuse.shuffle.reduce;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jvmreuse.shuffle.protocol.Announcement;

/**
 * Which MPI rank serves the map outputs behind a shuffle address ({@code host:port} of a
 * NodeManager): the Shuffle Manager whose announcement has that port and the host among its
 * names or addresses. Hosts not in the directory are fetched over HTTP.
 */
final class RankDirectory {
    private record Entry(int rank, Announcement announcement) { }

    private final List<Entry> entries;
    private final Map<String, Integer> resolved = new ConcurrentHashMap<>();

    private RankDirectory(List<Entry> entries) {
        this.entries = entries;
    }

    static RankDirectory of(List<String> directory) {
        List<Entry> entries = new ArrayList<>();
        for (int rank = 0; rank < directory.size(); rank++) {
            Announcement announcement = Announcement.parse(directory.get(rank));
            if (announcement != null) {
                entries.add(new Entry(rank, announcement));
            }
        }
        return new RankDirectory(List.copyOf(entries));
    }

    int size() {
        return entries.size();
    }

    /** The rank serving {@code hostAndPort}, or -1. */
    int rankOf(String hostAndPort) {
        return resolved.computeIfAbsent(hostAndPort, this::lookUp);
    }

    private int lookUp(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon < 0) {
            return -1;
        }
        String host = hostAndPort.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(hostAndPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
        for (Entry e : entries) {
            if (e.announcement.port() == port && e.announcement.names().stream().anyMatch(host::equalsIgnoreCase)) {
                return e.rank;
            }
        }
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                for (Entry e : entries) {
                    if (e.announcement.port() == port && e.announcement.names().contains(address.getHostAddress())) {
                        return e.rank;
                    }
                }
            }
        } catch (UnknownHostException e) {
            // not resolvable: not ours
        }
        return -1;
    }
}
