package org.jvmreuse.pool.slot;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A shared library's list of names in a resource: one a line, '#' starts a comment. */
final class NameListResource {
    private NameListResource() {
    }

    static List<String> read(URL list) throws IOException {
        List<String> names = new ArrayList<>();
        // Not through the JDK's cache of open jar files: a jar rebuilt since it was cached would
        // read as corrupt, where a fresh open sees the new jar (and the slot's new shared loader).
        URLConnection connection = list.openConnection();
        connection.setUseCaches(false);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                String name = line.replaceFirst("#.*", "").strip();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}
