package org.jvmreuse.pool.service;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jvmreuse.pool.mpi.Mpi;

/**
 * The service directory: every rank's announcement, exchanged once at pool start-up by all
 * ranks of the launch (a collective, before any communication thread runs). A reducer in any
 * slot finds there which rank serves the map outputs of which node.
 */
public final class ServiceDirectory {
    private ServiceDirectory() {
    }

    public static List<String> exchange(Mpi mpi, String mine) {
        List<String> directory = new ArrayList<>();
        for (byte[] announcement : mpi.allGather(mine.getBytes(StandardCharsets.UTF_8))) {
            directory.add(new String(announcement, StandardCharsets.UTF_8));
        }
        return directory;
    }
}
