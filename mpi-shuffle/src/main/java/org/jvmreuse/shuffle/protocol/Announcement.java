package org.jvmreuse.shuffle.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * What a Shuffle Manager puts in the pool's service directory: the NodeManager shuffle port it
 * stands in for and the names and addresses of its host, as a reducer may see them in a map's
 * shuffle address ({@code http://host:port/}).
 */
public record Announcement(int port, List<String> names) {
    private static final String PREFIX = "mpi-shuffle ";

    public String format() {
        return PREFIX + port + " " + String.join(",", names);
    }

    /** The announcement in a directory entry, or null if the entry is not a Shuffle Manager's. */
    public static Announcement parse(String entry) {
        if (entry == null || !entry.startsWith(PREFIX)) {
            return null;
        }
        String[] parts = entry.substring(PREFIX.length()).split(" ", 2);
        try {
            List<String> names = new ArrayList<>();
            if (parts.length == 2) {
                for (String name : parts[1].split(",")) {
                    if (!name.isBlank()) {
                        names.add(name.strip());
                    }
                }
            }
            return new Announcement(Integer.parseInt(parts[0]), List.copyOf(names));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
