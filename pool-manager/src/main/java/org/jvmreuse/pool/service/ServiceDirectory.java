package org.jvmreuse.pool.service;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The service directory: every rank's announcement, exchanged once at pool start-up by all
 * ranks of the launch (a collective, before any communication thread runs). A reducer in any
 * slot finds there which rank serves the map outputs of which node.
 */
public final class ServiceDirectory {
    private ServiceDirectory() {
    }

    public static List<String> exchange(Comm comm, String mine) throws MPIException {
        byte[] own = mine.getBytes(StandardCharsets.UTF_8);
        int size = comm.getSize();
        int[] lengths = new int[size];
        comm.allGather(new int[] {own.length}, 1, MPI.INT, lengths, 1, MPI.INT);
        int[] offsets = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) {
            offsets[r] = total;
            total += lengths[r];
        }
        byte[] all = new byte[Math.max(1, total)];
        comm.allGatherv(own.length == 0 ? new byte[1] : own, own.length, MPI.BYTE, all, lengths, offsets, MPI.BYTE);
        List<String> directory = new ArrayList<>(size);
        for (int r = 0; r < size; r++) {
            directory.add(new String(all, offsets[r], lengths[r], StandardCharsets.UTF_8));
        }
        return directory;
    }
}
